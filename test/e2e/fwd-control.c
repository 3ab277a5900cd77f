// Forward mode and control flow: tangents are values of the primal control
// flow, so a switch, early returns, and even a cycle that is not a loop (a
// goto into a loop's body, which reverse mode rejects) need nothing of
// their own. Also a function returning a struct of two doubles by value:
// its tangent is a struct too. References: finite differences of the same
// C code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

double __enzyme_fwddiff(void *, ...);
typedef struct {
  double a, b;
} Pair;
Pair __enzyme_fwddiff_pair(void *, ...);

static int K;

double pick(double x, int k) {
  switch (k) {
  case 0:
    return x * x;
  case 1:
    return sin(x);
  case 2:
    if (x > 0.2)
      return exp(x);
    return log(x);
  default:
    return x;
  }
}
static long double pick_at(const long double *v) { return pick(v[0], K); }

/* With n > 2 the loop is entered in the middle of its body. */
double irreducible(double x, int n) {
  int i = 0;
  if (n > 2)
    goto inside;
  for (; i < n; ++i) {
    x = x * 1.5;
  inside:
    x = sin(x) + x;
  }
  return x;
}
static long double irreducible_at(const long double *v) {
  return irreducible(v[0], K);
}

Pair polar(double r, double t) {
  Pair p = {r * cos(t), r * sin(t)};
  return p;
}
static long double polar_at(const long double *v) {
  Pair p = polar(v[0], v[1]);
  return K ? p.b : p.a;
}

int main(void) {
  for (K = 0; K != 4; ++K)
    gc_tangent("pick", pick_at, 1, (long double[]){0.3}, (long double[]){1},
               __enzyme_fwddiff((void *)pick, 0.3, 1.0, K), GC_TOL_DOUBLE);
  for (K = 0; K != 5; ++K)
    gc_tangent("irreducible", irreducible_at, 1, (long double[]){0.3},
               (long double[]){1},
               __enzyme_fwddiff((void *)irreducible, 0.3, 1.0, K),
               GC_TOL_DOUBLE);
  Pair t = __enzyme_fwddiff_pair((void *)polar, 2.0, 0.5, 0.7, -1.0);
  for (K = 0; K != 2; ++K)
    gc_tangent("polar", polar_at, 2, (long double[]){2.0, 0.7},
               (long double[]){0.5, -1}, K ? t.b : t.a, GC_TOL_DOUBLE);
  return gc_finish();
}
