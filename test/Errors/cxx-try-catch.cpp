// A try/catch whose handler lets the function go on: the unwind path is
// part of what the function does, so it cannot be taken as never taken
// (UnwindPaths.cpp); the calls that may throw into the handler are located
// errors, at every level. Handlers that only clean up, rethrow or terminate
// are fine (test/e2e/cxx-exceptions.cpp).
// RUN: not %clangxx-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx-adjoint -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdexcept>

double __enzyme_autodiff(void *, ...);

double risky(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return x * x;
}

double handled(double x) {
  try {
    return risky(x) * 3;
  } catch (const std::exception &) {
    return 0;
  }
}

double g(double x) { return __enzyme_autodiff((void *)handled, x); }

// CHECK: cxx-try-catch.cpp:14:{{[0-9]+}}: error: adjoint: the exception that the call to '{{.*}}' may throw can be caught by a 'catch' of the function; try/catch cannot be differentiated yet (move it out of the differentiated function) (in the gradient of 'handled(double)' requested at {{.*}}cxx-try-catch.cpp:26:29)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
