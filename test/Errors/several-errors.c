// Every error in a translation unit is reported, each at its own location,
// and clang still exits cleanly.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);
extern double mystery(double);

double f(double x, double y) { return x * y; }
double h(double x) { return mystery(x); }

double g(double x) {
  double a = __enzyme_autodiff((void *)f, x);
  double b = __enzyme_autodiff((void *)h, x);
  return a + b;
}

// CHECK-DAG: several-errors.c:12:14: error: adjoint: too few arguments
// CHECK-DAG: several-errors.c:9:29: error: adjoint: call to external function 'mystery'{{.*}}requested at {{.*}}several-errors.c:13:14)
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
