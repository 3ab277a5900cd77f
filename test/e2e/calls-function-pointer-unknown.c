// A call through a pointer to a function that has no derivative in the
// module (a library function without a rule, here Bessel's j1) is not
// silently treated as constant: the gradient aborts at run time with a
// message that says so.
// RUN: %clang-adjoint -O1 %s -o %t -lm && not --crash %t 2>&1 | FileCheck %s
#include <math.h>

double __enzyme_autodiff(void *, ...);

typedef double (*unary)(double);
static double twice(double x) { return 2 * x; }
double call(unary f, double x) { return f(x) * x; }

int main(int argc, char **argv) {
  unary f = argc > 5 ? twice : j1; /* j1 at run time. */
  extern int enzyme_const;
  __enzyme_autodiff((void *)call, enzyme_const, f, 0.5);
  return 0;
}
// CHECK: adjoint: a call through a function pointer reached {{.*}}, which has no derivative
