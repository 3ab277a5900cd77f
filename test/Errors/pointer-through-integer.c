// A pointer into memory that holds derivatives, turned into an integer (to
// tag it) and back: its shadow does not follow the integer, and the loads
// through the pointer rebuilt from it would carry no derivative. A located
// error, not a gradient of zero.
// RUN: not %clang-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang-adjoint -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

void __enzyme_autodiff(void *, ...);

double f(double *x, uintptr_t tag) {
  uintptr_t u = (uintptr_t)x;
  double *y = (double *)((u | tag) & ~(uintptr_t)1);
  return y[0] * y[0];
}

void g(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx, 1); }

// CHECK: pointer-through-integer.c:13:15: error: adjoint: a pointer into memory that holds derivatives goes through an integer, which loses its shadow; this cannot be differentiated yet (compute with the pointer itself) (in the gradient of 'f' requested at {{.*}}pointer-through-integer.c:17:33)
// CHECK-NOT: PLEASE submit a bug report
