// Gradient calls in the arms of an if/else or a switch that differ only in
// the function are merged by SimplifyCFG before AD runs: one call on
// select(c, @f, @g), or on selects of selects for a switch (Frontend/
// dispatch-phi.ll covers phis). Each must still give
// the gradient of the function the program chose. References: closed forms.
// The first RUN line checks that the optimizer did merge the calls.
// RUN: %clang -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=MERGED
// RUN: %clang-adjoint -O2 %s -o %t -lm && %t
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
#include "gradcheck.h"

double __enzyme_autodiff(void *, ...);

static double f(double x) { return sin(x) * x; }
static double g(double x) { return exp(x) / (1 + x * x); }
static double h(double x) { return log(2 + x * x); }

static double df(double x) { return cos(x) * x + sin(x); }
static double dg(double x) {
  return exp(x) / (1 + x * x) - 2 * x * exp(x) / ((1 + x * x) * (1 + x * x));
}
static double dh(double x) { return 2 * x / (2 + x * x); }

// MERGED-LABEL: define {{.*}}double @two_way(
// MERGED:         select i1 {{.*}}, ptr @{{f|g}}, ptr @{{f|g}}
__attribute__((noinline)) double two_way(int which, double x) {
  if (which)
    return __enzyme_autodiff((void *)f, x);
  return __enzyme_autodiff((void *)g, x);
}

// MERGED-LABEL: define {{.*}}double @three_way(
// MERGED:         [[INNER:%.*]] = select i1 {{.*}}, ptr @{{f|g|h}}, ptr @{{f|g|h}}
// MERGED:         select i1 {{.*}}, ptr @{{f|g|h}}, ptr [[INNER]]
__attribute__((noinline)) double three_way(int which, double x) {
  switch (which) {
  case 0:
    return __enzyme_autodiff((void *)f, x);
  case 1:
    return __enzyme_autodiff((void *)g, x);
  default:
    return __enzyme_autodiff((void *)h, x);
  }
}

int main(void) {
  const double points[] = {-1.3, 0.4, 2.2};
  for (int i = 0; i < 3; ++i) {
    double x = points[i];
    gc_expect("two_way(1)", "df/dx", two_way(1, x), df(x), GC_TOL_DOUBLE);
    gc_expect("two_way(0)", "dg/dx", two_way(0, x), dg(x), GC_TOL_DOUBLE);
    gc_expect("three_way(0)", "df/dx", three_way(0, x), df(x), GC_TOL_DOUBLE);
    gc_expect("three_way(1)", "dg/dx", three_way(1, x), dg(x), GC_TOL_DOUBLE);
    gc_expect("three_way(2)", "dh/dx", three_way(2, x), dh(x), GC_TOL_DOUBLE);
  }
  return gc_finish();
}
