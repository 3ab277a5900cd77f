// A std::function the differentiated function receives from its caller:
// the call through it is differentiated as a call that may write through
// every pointer it gets, so the std::function (passed enzyme_const) would
// need a shadow; a located compile-time error, not a crash or a wrong
// gradient. A std::function created inside the function works:
// test/e2e/cxx-function.cpp, test/e2e/cxx-dispatch.cpp.
// RUN: not %clangxx-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx-adjoint -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <functional>

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double viaParameter(const std::function<double(double)> *f, double x) {
  return (*f)(x) * x;
}

double g(const std::function<double(double)> *f, double x) {
  return __enzyme_autodiff((void *)viaParameter, enzyme_const, f, x);
}

// CHECK: error: adjoint: parameter 1 is passed enzyme_const, but values that carry derivatives are stored into the memory it points to; pass it enzyme_dup with a shadow (in the gradient of 'viaParameter(std::function<double (double)> const*, double)'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
