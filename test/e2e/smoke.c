// The example of the foundation issue, at every optimization level.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
#include <math.h>
#include <stdio.h>
extern int enzyme_const;
typedef struct { double dx, dy; } Grad;
Grad __enzyme_autodiff(void *, ...);
double f(double x, double y, int mode) {
  double r = x * y + sin(x) / (1.0 + y * y);
  if (r > 1.0) r = log(r) * exp(-y); else r = pow(r, 3) + tanh(x);
  return mode ? r : -r;
}
int main(void) {
  double x = 0.7, y = 1.3, h = 1e-6;
  Grad g = __enzyme_autodiff((void *)f, x, y, enzyme_const, 1);
  double fx = (f(x + h, y, 1) - f(x - h, y, 1)) / (2 * h);
  double fy = (f(x, y + h, 1) - f(x, y - h, 1)) / (2 * h);
  return fabs(g.dx - fx) > 1e-7 || fabs(g.dy - fy) > 1e-7;
}
