// Checks scalar code that the SLP vectorizer turns into vector operations
// (insertelement, shufflevector with poison lanes, extractelement, and
// vector sqrt/fabs/fmuladd intrinsics) before the plugin sees it.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O3 -fno-math-errno %s -o %tn -lm && %tn
// RUN: %clang-adjoint -O2 -fno-math-errno -g %s -o %tg -lm && %tg
// Not -ffast-math: reassociation lets SLP build llvm.vector.reduce.fadd and
// fmul, which have no rule yet (bug reported).
#include "gradcheck.h"

double __enzyme_autodiff(void *, ...);
typedef struct { double da, db, dc, dd; } D4;
typedef struct { float da, db, dc, dd; } F4;
#define autodiff_d4 ((D4(*)(void *, ...))__enzyme_autodiff)
#define autodiff_f4 ((F4(*)(void *, ...))__enzyme_autodiff)

// Pairs of isomorphic expressions, the shape SLP looks for. At -O3
// -fno-math-errno this becomes <2 x double> sqrt, fabs and fmuladd.
double pairs(double a, double b, double c, double d) {
  double p = sqrt(a * c + 1) * fabs(b), q = sqrt(b * d + 1) * fabs(a);
  double r = sqrt(c * a + 2) * fabs(d), s = sqrt(d * b + 2) * fabs(c);
  return (p * q) * (r * s);
}
// The same in float, vectorized alike; the body is also instantiated
// in long double for the reference.
#define FPAIRS_BODY(T, S)                                                      \
  T p = sqrt##S(a * c + 1) * fabs##S(b), q = sqrt##S(b * d + 1) * fabs##S(a); \
  T r = sqrt##S(c * a + 2) * fabs##S(d), s = sqrt##S(d * b + 2) * fabs##S(c); \
  return (p * q) * (r * s);
float fpairs(float a, float b, float c, float d) { FPAIRS_BODY(float, f) }
static long double lpairs(long double a, long double b, long double c,
                          long double d) {
  FPAIRS_BODY(long double, l)
}

static long double pairs_at(const long double *v) {
  return pairs(v[0], v[1], v[2], v[3]);
}
static long double fpairs_at(const long double *v) {
  return lpairs(v[0], v[1], v[2], v[3]);
}

int main(void) {
  const float pts[][4] = {{0.5f, 1.5f, -0.75f, 2.0f},
                          {-1.25f, 0.25f, 0.5f, -0.5f}};
  for (int i = 0; i != 2; ++i) {
    const float *p = pts[i];
    long double v[] = {p[0], p[1], p[2], p[3]};
    D4 g = autodiff_d4((void *)pairs, (double)p[0], (double)p[1],
                       (double)p[2], (double)p[3]);
    gc_grad("pairs", pairs_at, 4, v, (long double[]){g.da, g.db, g.dc, g.dd},
            GC_TOL_DOUBLE);
    F4 f = autodiff_f4((void *)fpairs, p[0], p[1], p[2], p[3]);
    gc_grad("fpairs", fpairs_at, 4, v, (long double[]){f.da, f.db, f.dc, f.dd},
            GC_TOL_FLOAT);
  }
  return gc_finish();
}
