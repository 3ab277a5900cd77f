// A loop: located error at a line of the loop, and the request site.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double f(double x, int n) {
  double r = 1;
  for (int i = 0; i < n; i++)
    r = r * x + 1.0 / (r + i);
  return r;
}

double g(double x, int n) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, n);
}

// CHECK: loop-location.c:{{9|10}}:{{[0-9]+}}: error: adjoint: loops are not supported yet{{.*}}(in the gradient of 'f' requested at {{.*}}loop-location.c:15:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
