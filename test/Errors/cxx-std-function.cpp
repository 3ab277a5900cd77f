// Calls through a std::function whose target the differentiated function
// cannot know: one it receives from its caller, and, at -O0, one it calls
// in a loop (where, as far as the analysis can tell, each call through it
// may change the function it holds; from -O2 on, the optimizer has already
// made that call direct). Each is a compile-time error, not a crash or a
// wrong gradient. A std::function created and called inside the function
// works: test/e2e/cxx-function.cpp.
// RUN: not %clangxx-adjoint -g -O0 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,LOOP
// RUN: not %clangxx-adjoint -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cmath>
#include <functional>

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double viaParameter(const std::function<double(double)> *f, double x) {
  return (*f)(x) * x;
}

double inLoop(double x, double y) {
  std::function<double(double)> f = [x](double t) { return std::cos(x * t); };
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += f(y * i);
  return s;
}

double g(const std::function<double(double)> *f, double x) {
  return __enzyme_autodiff((void *)viaParameter, enzyme_const, f, x) +
         __enzyme_autodiff((void *)inLoop, x, enzyme_const, 2.0);
}

// CHECK-DAG: error: adjoint: indirect calls cannot be differentiated yet (in the gradient of 'viaParameter(std::function<double (double)> const*, double)' requested at {{.*}}cxx-std-function.cpp:30:10)
// LOOP-DAG: error: adjoint: indirect calls cannot be differentiated yet (in the gradient of 'inLoop(double, double)' requested at {{.*}}cxx-std-function.cpp:31:10)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
