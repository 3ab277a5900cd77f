// The registration macros of <adjoint/adjoint.h>: a custom gradient and a
// custom forward derivative for the same function, each deliberately
// scaled by 2 so that the tests fail if f's body were differentiated
// instead; f's true derivative is 3x^2.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
#include <adjoint/adjoint.h>
#include <stdio.h>

double cube(double x) { return x * x * x; }
double cube_aug(double x) { return cube(x); }
double cube_rev(double x, double dret) { return 2 * 3 * x * x * dret; }
double cube_fwd(double x, double dx) { return 2 * 3 * x * x * dx; }
ADJOINT_CUSTOM_GRADIENT(cube, cube_aug, cube_rev);
ADJOINT_CUSTOM_DERIVATIVE(cube, cube_fwd);

double f(double x) { return cube(x) + x; }

int main(void) {
  double x = 1.5;
  double g = __enzyme_autodiff((void *)f, x);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  double want = 2 * 3 * x * x + 1;
  if (g != want || t != want) {
    printf("FAIL: reverse %g, forward %g, want %g\n", g, t, want);
    return 1;
  }
  return 0;
}
