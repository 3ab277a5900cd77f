// Inline assembly on an active value: located error at the asm statement.
// RUN: not %clang-adjoint --target=x86_64-unknown-linux-gnu -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

double f(double x) {
  double r;
  __asm__("fsqrt" : "=t"(r) : "0"(x));
  return r * x;
}

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// CHECK: inline-asm-location.c:8:3: error: adjoint: inline assembly cannot be differentiated{{.*}}(in the gradient of 'f' requested at {{.*}}inline-asm-location.c:13:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
