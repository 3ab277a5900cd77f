// The C side of bindc-from-c.f90: calls the Fortran functions and their
// gradients (bind(C) wrappers that call __enzyme_autodiff in Fortran) and
// compares with finite differences.
#include "gradcheck.h"

#define N 6

double energy(int n, const double *x);
double energy_grad(int n, const double *x, double *dx);
double scaled(int n, const double *x, double s);
double scaled_grad(int n, const double *x, double *dx, double s);

static long double energy_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = (double)v[i];
  return energy(N, x);
}

static long double scaled_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = (double)v[i];
  return scaled(N, x, (double)v[N]);
}

int main(void) {
  double x[N] = {0.3, -1.1, 0.7, 1.9, -0.45, 1.2}, dx[N] = {0};
  long double at[N + 1], got[N + 1];
  double value = energy_grad(N, x, dx);
  gc_expect("energy", "value", value, energy(N, x), 0);
  for (int i = 0; i != N; ++i) {
    at[i] = x[i];
    got[i] = dx[i];
  }
  gc_grad("energy", energy_at, N, at, got, GC_TOL_DOUBLE);
  if (!gc_failures)
    printf("energy gradient ok\n");

  // Gradients accumulate into dx; start from zero.
  for (int i = 0; i != N; ++i)
    dx[i] = 0;
  double s = 1.3;
  double ds = scaled_grad(N, x, dx, s);
  for (int i = 0; i != N; ++i)
    got[i] = dx[i];
  at[N] = s;
  got[N] = ds;
  int before = gc_failures;
  gc_grad("scaled", scaled_at, N + 1, at, got, GC_TOL_DOUBLE);
  if (gc_failures == before)
    printf("scaled gradient ok\n");
  return gc_finish();
}
