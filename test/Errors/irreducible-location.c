// A goto into the middle of a loop: the error is located in the loop and
// names the request site.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double f(double x, int n) {
  double r = 1;
  int i = 0;
  if (n > 3)
    goto inside;
  for (; i < n; i++) {
    r = r * x;
  inside:
    r = r + 1.0 / (r + i);
  }
  return r;
}

double g(double x, int n) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, n);
}

// CHECK: irreducible-location.c:{{1[3-7]}}:{{[0-9]+}}: error: adjoint: the function contains a cycle that is not a loop{{.*}}(in the gradient of 'f' requested at {{.*}}irreducible-location.c:22:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
