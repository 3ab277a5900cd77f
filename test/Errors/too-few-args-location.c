// A malformed call is reported at the call's location.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y; }

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// CHECK: too-few-args-location.c:9:10: error: adjoint: too few arguments to __enzyme_autodiff: missing a value for parameter 2 of 'f'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
