// What cannot be differentiated inside a function that forward mode reaches
// through a call left after inlining (here recursion) is reported where it
// is, naming the request that needed it; the request fails cleanly (no
// partial derivative is left in the module), and another request reaching
// the same function reports it again.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_fwddiff(void *, ...);
extern double ext(double);

double rec(double x, int n) { return n == 0 ? ext(x) : rec(x * x, n - 1) + x; }
double top(double x) { return rec(x, 3) * 2; }
double d_top(double x) { return __enzyme_fwddiff((void *)top, x, 1.0); }
double d_rec(double x) { return __enzyme_fwddiff((void *)rec, x, 1.0, 2); }

// CHECK: fwd-recursive-callee.c:11:47: error: adjoint: call to external function 'ext', which has no body and no derivative rule{{.*}}(in the forward derivative of 'rec' requested at {{.*}}fwd-recursive-callee.c:13:33)
// CHECK: fwd-recursive-callee.c:11:47: error: adjoint: call to external function 'ext'{{.*}}(in the forward derivative of 'rec' requested at {{.*}}fwd-recursive-callee.c:14:33)
// CHECK-NOT: error: adjoint
// CHECK-NOT: PLEASE submit a bug report
