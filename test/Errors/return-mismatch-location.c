// A struct return type that does not match the gradients, at the call.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_const;
typedef struct { double dx, dy; } Grad;
Grad __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y; }

double g(double x, double y) {
  Grad r = __enzyme_autodiff((void *)f, x, enzyme_const, y);
  return r.dx + r.dy;
}

// CHECK: return-mismatch-location.c:11:12: error: adjoint: __enzyme_autodiff is declared to return { double, double } but 'f' has 1 enzyme_out gradient value(s)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
