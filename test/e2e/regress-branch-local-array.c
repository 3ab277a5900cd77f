// Regression (found by randomized differential testing): a pointer chosen
// between differentiated memory and a local array of constants; the local
// array needs a (zeroed) shadow too. Closed form: x[0] > 0, so out[0] =
// x[1] * x[0] and the gradient is (x[1], x[0]) = (3, 2).
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// CHECK: dx = 3 2
#include <stdio.h>
#include <string.h>
void __enzyme_autodiff(void *, ...);
extern int enzyme_const;
void f(double *x, double *out, const int *k) {
  double t[2] = {0, 0};               /* local array holding only constants */
  double *p = x[0] > 0 ? &x[1] : &t[k[0]];
  out[0] = p[0] * x[0];
}
int main(void) {
  int k[1] = {1};
  double x[2] = {2, 3}, dx[2] = {0, 0}, out[1] = {0}, dout[1] = {1};
  __enzyme_autodiff((void *)f, x, dx, out, dout, enzyme_const, k);
  printf("dx = %g %g (expect 3 2)\n", dx[0], dx[1]);
  return 0;
}
