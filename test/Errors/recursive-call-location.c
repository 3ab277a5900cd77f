// A recursive call that cannot be inlined: located error naming the callee.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double power(double x, int n) {
  if (n <= 0)
    return 1.0;
  return x * power(x, n - 1);
}

double g(double x, int n) {
  return __enzyme_autodiff((void *)power, x, enzyme_const, n);
}

// CHECK: recursive-call-location.c:10:14: error: adjoint: call to 'power' cannot be differentiated yet{{.*}}(in the gradient of 'power' requested at {{.*}}recursive-call-location.c:14:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
