// Regression: the address of a function stored into memory that also holds
// derivatives (a struct with a double and a function pointer, on the heap
// so that nothing promotes it to registers), then loaded back in another
// block and called. The address is code: it is its own shadow (it was
// "a pointer without a shadow ('square') is stored into memory that holds
// pointers with shadows"), and the loaded pointer is known to be that
// function, so the call is direct and inlined (it was "indirect calls
// cannot be differentiated yet"), also under the sanitizer, where GVN
// leaves such loads alone. Reference: closed form.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O0 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

typedef struct {
  double dx, ds;
} G2;
G2 __enzyme_autodiff(void *, ...);

typedef struct {
  double scale;
  double (*fn)(double);
} Op;

static double square(double v) { return v * v; }

static double apply(const Op *op, double x) {
  if (!op->fn)
    return 0;
  return op->fn(x) * op->scale;
}

/* s * sin(x)^2 */
double f(double x, double s) {
  Op *op = malloc(sizeof(Op));
  op->scale = s;
  op->fn = square;
  double r = apply(op, sin(x));
  free(op);
  return r;
}

int main(void) {
  double x = 0.8, s = 1.7;
  G2 g = __enzyme_autodiff((void *)f, x, s);
  gc_expect("f", "d/dx", g.dx, 2 * s * sinl(x) * cosl(x), GC_TOL_DOUBLE);
  gc_expect("f", "d/ds", g.ds, sinl(x) * sinl(x), GC_TOL_DOUBLE);
  return gc_finish();
}
