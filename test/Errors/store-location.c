// Storing an active value to a global: located error at the assignment.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);
double sink;

double f(double x) {
  double r = x * x;
  sink = r;
  return r;
}

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// CHECK: store-location.c:9:8: error: adjoint: storing a value that carries a derivative into global variable 'sink' is not supported{{.*}}(in the gradient of 'f' requested at {{.*}}store-location.c:14:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
