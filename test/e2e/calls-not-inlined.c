// Helpers the optimizer did not inline (noinline, several layers deep,
// called from several places and inside loops), with mixed activity (one
// helper called with a constant and with an active argument), helpers that
// return a struct of doubles or a pointer into active memory, and one that
// writes its result through an output pointer. Run twice: as is (the
// clone's own inliner inlines what it can) and with every call kept as a
// call (-adjoint-inline-callees=false), which differentiates each helper
// through its augmented forward and reverse pair. References: long-double
// finite differences of the same code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint %plugin-options -mllvm -adjoint-inline-callees=false -O0 %s -o %tn0 -lm && %tn0
// RUN: %clang-adjoint %plugin-options -mllvm -adjoint-inline-callees=false -O1 %s -o %tn1 -lm && %tn1
// RUN: %clang-adjoint %plugin-options -mllvm -adjoint-inline-callees=false -O2 %s -o %tn2 -lm && %tn2
// RUN: %clang-adjoint %plugin-options -mllvm -adjoint-inline-callees=false -O3 %s -o %tn3 -lm && %tn3
// RUN: %clang-adjoint %plugin-options -mllvm -adjoint-inline-callees=false -O1 -fsanitize=address %s -o %tna -lm && %tna
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

#define NOINLINE __attribute__((noinline))

typedef struct {
  double lo, hi;
} Range;

NOINLINE double pair_term(const double *x, int i) {
  return x[i] * sin(x[i + 1]);
}
NOINLINE double layer2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i)
    s += pair_term(x, i);
  return s;
}
NOINLINE void layer1(const double *x, int n, double *out) {
  *out = layer2(x, n) * layer2(x, n - 1);
}
NOINLINE double scale(double a, double b) { return a * exp(b * 0.3); }
NOINLINE Range bounds(const double *x, int n) {
  Range r = {x[0], x[0]};
  for (int i = 1; i < n; ++i) {
    r.lo = fmin(r.lo, x[i]);
    r.hi = fmax(r.hi, x[i]);
  }
  return r;
}
NOINLINE const double *middle(const double *x, int n) { return x + n / 2; }

double top(const double *x, int n, double a) {
  double v;
  layer1(x, n, &v);
  Range r = bounds(x, n);
  double m = *middle(x, n);
  /* scale with a constant first argument, then with an active one. */
  return scale(2.0, v) + scale(a, r.hi - r.lo) + m * m * a;
}
static long double top_at(const long double *v) {
  double x[5] = {v[0], v[1], v[2], v[3], v[4]};
  return top(x, 5, v[5]);
}

int main(void) {
  double x[5] = {0.3, -0.7, 1.1, 0.5, -1.4}, dx[5] = {0};
  double a = 0.8;
  double da = __enzyme_autodiff((void *)top, enzyme_dup, x, dx, enzyme_const,
                                5, a);
  gc_grad("top", top_at, 6,
          (long double[]){x[0], x[1], x[2], x[3], x[4], a},
          (long double[]){dx[0], dx[1], dx[2], dx[3], dx[4], da},
          GC_TOL_DOUBLE);
  return gc_finish();
}
