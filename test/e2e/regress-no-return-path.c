// Regression: code on a path that never returns (it ends in abort, or in a
// C++ throw) needs no derivative, since the gradient is not completed on
// it: formatting an error message from the input there was "call to
// 'snprintf' receives a value that carries a derivative and may write
// results derived from it to memory". Reference: closed form.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
#include "gradcheck.h"
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);

double f(double x) {
  if (x < 0) {
    char message[64];
    snprintf(message, sizeof message, "negative input %g", x);
    fputs(message, stderr);
    abort();
  }
  return sqrt(x) * x;
}

int main(void) {
  gc_expect("f", "d/dx", __enzyme_autodiff((void *)f, 2.0), 1.5L * sqrtl(2),
            GC_TOL_DOUBLE);
  return gc_finish();
}
