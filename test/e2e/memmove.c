// memmove with overlapping ranges, shifting right and left, on memory that
// holds derivatives: the reverse behaves as if through a temporary block.
// References: finite differences of the same C code; the shadow of a
// location memmove overwrote ends at its adjoint of the value it held
// after the move. ASan checks the temporary block is used and freed right.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <string.h>

extern int enzyme_const;
void __enzyme_autodiff(void *, ...);

/* x is n = 5 doubles; shift right by one, then left by two. */
double shifts(double *x, int n) {
  double t[6];
  memcpy(t, x, n * sizeof(double));
  memmove(t + 1, t, (n - 1) * sizeof(double));
  double a = t[0] * t[1] + sin(t[4]);
  memmove(t, t + 2, (n - 2) * sizeof(double));
  return a * t[0] + t[1] * t[2];
}
static long double shifts_at(const long double *v) {
  double x[5] = {v[0], v[1], v[2], v[3], v[4]};
  return shifts(x, 5);
}

int main(void) {
  double x[5] = {0.5, 1.5, -0.7, 2.0, 0.9}, dx[5] = {0};
  __enzyme_autodiff((void *)shifts, x, dx, enzyme_const, 5);
  gc_grad("shifts", shifts_at, 5, (long double[]){0.5, 1.5, -0.7, 2.0, 0.9},
          (long double[]){dx[0], dx[1], dx[2], dx[3], dx[4]}, GC_TOL_DOUBLE);
  return gc_finish();
}
