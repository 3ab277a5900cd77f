// At -O0 too (functions are optnone and nothing is inlined), the error is
// located at the call of the unknown function, through the helper that was
// inlined into the clone.
// RUN: not %clang-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s

extern double mystery(double);
double __enzyme_autodiff(void *, ...);

static double helper(double x) {
  return mystery(x) + x;
}

double f(double x) {
  return helper(x) * x;
}

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// CHECK: external-call-location-O0.c:10:10: error: adjoint: call to external function 'mystery'{{.*}}(in the gradient of 'f' requested at {{.*}}external-call-location-O0.c:18:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
