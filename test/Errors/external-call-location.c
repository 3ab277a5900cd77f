// A call to an unknown external function: clang reports a located error
// (file:line:col of the call) that names the function and the request site,
// and exits with an error instead of crashing.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern double mystery(double);
double __enzyme_autodiff(void *, ...);

double f(double x) {
  return mystery(x) * x;
}

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// CHECK: external-call-location.c:10:10: error: adjoint: call to external function 'mystery'{{.*}}(in the gradient of 'f' requested at {{.*}}external-call-location.c:14:10)
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
