// realloc inside the differentiated function: the new block's shadow holds
// the old block's shadow pointers, and in the reverse pass the adjoints of
// the bytes realloc copied go back to the old block; shadow blocks are
// freed as the primal ones are. Growth, a chain of two, and shrinking.
// References: finite differences of the same C code; ASan/LSan check that
// no shadow block leaks or is used after it is freed.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

void __enzyme_autodiff(void *, ...);

/* Grow a buffer of values computed from x, keep using the old values. */
double grow(const double *x) {
  double *b = malloc(2 * sizeof(double));
  b[0] = x[0] * x[1];
  b[1] = sin(x[0]);
  b = realloc(b, 4 * sizeof(double));
  b[2] = b[0] + b[1];
  b = realloc(b, 8 * sizeof(double));
  b[3] = b[2] * b[0];
  double r = b[3] + b[1] * x[1];
  free(b);
  return r;
}
static long double grow_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return grow(x);
}

/* Shrink: only the bytes that remain are copied. */
double shrink(const double *x) {
  double *b = calloc(3, sizeof(double));
  b[0] = x[0] * 3;
  b[2] = x[0] * x[0];
  b = realloc(b, sizeof(double));
  double r = b[0] * x[0];
  free(b);
  return r;
}
static long double shrink_at(const long double *v) {
  double x[1] = {v[0]};
  return shrink(x);
}

int main(void) {
  double x[2] = {0.6, 1.7}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)grow, x, dx);
  gc_grad("grow", grow_at, 2, (long double[]){0.6, 1.7},
          (long double[]){dx[0], dx[1]}, GC_TOL_DOUBLE);
  double y[1] = {0.8}, dy[1] = {0};
  __enzyme_autodiff((void *)shrink, y, dy);
  gc_grad("shrink", shrink_at, 1, (long double[]){0.8}, (long double[]){dy[0]},
          GC_TOL_DOUBLE);
  return gc_finish();
}
