// Heap blocks allocated inside the differentiated function (malloc, calloc,
// and freed there) get zeroed shadow blocks, freed once the reverse pass is
// done with them. References: finite differences of the same C code. The
// sanitizer run checks that no shadow block leaks or is used after free.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

void __enzyme_autodiff(void *, ...);

/* A temporary buffer, written, read back and freed. */
double temp(const double *x) {
  double *t = malloc(3 * sizeof(double));
  t[0] = x[0] * x[1];
  t[1] = sin(x[1]);
  t[2] = t[0] + t[1];
  double r = t[2] * t[0];
  free(t);
  return r;
}
static long double temp_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return temp(x);
}

/* calloc'd scratch chosen by a branch. */
double scratch(const double *x, int n) {
  double *a = calloc(2, sizeof(double));
  double *b = calloc(2, sizeof(double));
  double *p = n > 0 ? a : b;
  p[1] = x[0] * 3;
  double r = a[1] * x[0] + b[1];
  free(a);
  free(b);
  return r;
}
static int ScratchN;
static long double scratch_at(const long double *v) {
  double x[1] = {v[0]};
  return scratch(x, ScratchN);
}

int main(void) {
  double x[2] = {0.4, 1.1}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)temp, x, dx);
  gc_grad("temp", temp_at, 2, (long double[]){0.4, 1.1},
          (long double[]){dx[0], dx[1]}, GC_TOL_DOUBLE);
  for (ScratchN = 0; ScratchN != 2; ++ScratchN) {
    double y[1] = {0.7}, dy[1] = {0};
    __enzyme_autodiff((void *)scratch, y, dy, ScratchN);
    gc_grad("scratch", scratch_at, 1, (long double[]){0.7},
            (long double[]){dy[0]}, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
