// A recursive call that may throw, in a scope with a destructor, is an
// invoke: forward mode reports it (and suggests noexcept, with which it is
// a plain call) instead of mishandling the unwind edge.
// RUN: not %clang-adjoint -x c++ -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_fwddiff(void *, ...);
struct Guard {
  ~Guard();
};

double rec(double x, int n) {
  Guard g;
  if (n == 0)
    return x;
  return rec(x * x, n - 1) + x;
}
double d(double x) { return __enzyme_fwddiff((void *)rec, x, 1.0, 3); }

// CHECK: fwd-invoke.cpp:15:10: error: adjoint: the call to 'rec(double, int)' may throw an exception, and forward mode cannot differentiate calls that may unwind yet; declare it noexcept (C++) (in the forward derivative of 'rec(double, int)' requested at {{.*}}fwd-invoke.cpp:17:29)
// CHECK-NOT: PLEASE submit a bug report
