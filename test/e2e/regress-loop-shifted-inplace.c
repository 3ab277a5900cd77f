// Found by fuzzing: x[i] = x[i-1] * x[i] for i = n-1 down to 1. Within one
// iteration the store to x[i] and the load of x[i-1] never alias, but the
// next iteration's store overwrites what this one loaded: the load must be
// cached, not reloaded (alias analysis asked across iterations).
// Reference: closed form. With seed dx = {0, 0, 1}, J = final x[2] =
// x1 * x2, so dJ/dx = {0, x2, x1}.
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 && %t3
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double f(double *x, int n) {
  for (int i = n - 1; i > 0; --i)
    x[i] = x[i - 1] * x[i];
  return 0;
}
// The same upwards: x[i] = x[i-1] * x[i] reads the x[i-1] just written.
double g(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = x[i - 1] * x[i];
  return 0;
}

int main(void) {
  double x[3] = {2, 3, 5}, dx[3] = {0, 0, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  int bad = !(x[0] == 2 && x[1] == 6 && x[2] == 15) ||
            !(dx[0] == 0 && dx[1] == 5 && dx[2] == 3);
  // g: final x[2] = x0 * x1 * x2, so dJ/dx = {x1 x2, x0 x2, x0 x1}.
  double y[3] = {2, 3, 5}, dy[3] = {0, 0, 1};
  __enzyme_autodiff((void *)g, enzyme_dup, y, dy, enzyme_const, 3);
  bad |= !(y[2] == 30) || !(dy[0] == 15 && dy[1] == 10 && dy[2] == 6);
  if (bad)
    printf("f: dx = %g %g %g (expected 0 5 3); g: dy = %g %g %g (expected "
           "15 10 6)\n",
           dx[0], dx[1], dx[2], dy[0], dy[1], dy[2]);
  return bad;
}
