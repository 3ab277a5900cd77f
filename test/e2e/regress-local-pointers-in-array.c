// Regression: an array holding the addresses of two local objects, one
// holding a derivative and one not, read at a run-time index. A pointer
// loaded from the array may be either, so both objects need shadows, as
// for a pointer chosen by a branch; the second one was "a pointer without
// a shadow (the result of a 'alloca') is stored into memory that holds
// pointers with shadows". (C++ builds such arrays of pointers to objects
// for virtual calls.) Reference: closed form.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

typedef struct {
  double v;
  int tag;
} Box;

__attribute__((noinline)) static int pick(int k) { return k; }

double f(double x, int k) {
  Box a = {x * x, 1}, b = {2.0, 2};
  Box *boxes[2] = {&a, &b};
  Box *p = boxes[pick(k)];
  return p->v * p->tag + a.v;
}

int main(void) {
  double x = 1.5;
  gc_expect("f", "k = 0", __enzyme_autodiff((void *)f, x, enzyme_const, 0),
            2 * 2 * x, GC_TOL_DOUBLE);
  gc_expect("f", "k = 1", __enzyme_autodiff((void *)f, x, enzyme_const, 1),
            2 * x, GC_TOL_DOUBLE);
  return gc_finish();
}
