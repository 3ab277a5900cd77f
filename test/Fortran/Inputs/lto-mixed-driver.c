// The C side of lto-mixed.f90: asks for the gradient of the Fortran
// function `layered`, defined in another file, and compares it with finite
// differences.
#include "gradcheck.h"

#define N 6

double layered(const double *x, int n);
void __enzyme_autodiff(void *, ...);
extern int enzyme_const;

static long double layered_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = (double)v[i];
  return layered(x, N);
}

int main(void) {
  double x[N] = {0.4, -1.3, 0.8, 2.1, -0.2, 0.9}, dx[N] = {0};
  __enzyme_autodiff((void *)layered, x, dx, enzyme_const, N);
  long double at[N], got[N];
  for (int i = 0; i != N; ++i) {
    at[i] = x[i];
    got[i] = dx[i];
  }
  gc_grad("layered", layered_at, N, at, got, GC_TOL_DOUBLE);
  if (!gc_failures)
    printf("link-time gradient ok\n");
  return gc_finish();
}
