// enzyme_out has no meaning in forward mode, which returns a tangent rather
// than gradients: a located error that suggests enzyme_dup. A double
// without a marker takes a tangent, so one missing is reported too.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return x * y; }

double g(double x, double y) {
  return __enzyme_fwddiff((void *)f, enzyme_out, x, y, 1.0);
}
double h(double x, double y) { return __enzyme_fwddiff((void *)f, x, 1.0, y); }

// CHECK: fwd-enzyme-out.c:12:10: error: adjoint: enzyme_out on parameter 1 of 'f': forward mode (__enzyme_fwddiff) returns no gradients; use enzyme_dup followed by the tangent of the value
// CHECK: fwd-enzyme-out.c:14:39: error: adjoint: missing tangent for parameter 2 of 'f': in forward mode a floating-point value without a marker is enzyme_dup and is followed by its tangent; pass one, or mark the value enzyme_const
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
