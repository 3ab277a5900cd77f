// Forward and reverse mode on the same function agree: for every direction
// v, the tangent that __enzyme_fwddiff returns equals the dot product of v
// with the gradient that __enzyme_autodiff computes (both modes read the
// same rule table, through different code). The function has a loop, a
// branch, a local array and libm calls; the tangents are also checked
// against finite differences, so that agreeing on a wrong answer fails.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define N 5

double model(const double *x, double s, int n) {
  double t[N], acc = 0;
  for (int i = 0; i < n; ++i)
    t[i] = x[i] > 0 ? exp(-x[i] * s) : x[i] * x[i] + s;
  for (int i = 1; i < n; ++i)
    acc += t[i] * t[i - 1] + sin(t[i] * s);
  return acc / (1 + s * s);
}
static long double model_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return model(x, v[N], N);
}

int main(void) {
  double x[N] = {0.3, -0.4, 1.2, 0.05, -1.1}, s = 0.7;
  double grad[N] = {0};
  double gs = __enzyme_autodiff((void *)model, enzyme_dup, x, grad,
                                enzyme_out, s, N);
  long double at[N + 1];
  for (int i = 0; i != N; ++i)
    at[i] = x[i];
  at[N] = s;
  /* The unit directions, then two mixed ones. */
  for (int k = 0; k != N + 3; ++k) {
    double v[N + 1];
    long double lv[N + 1];
    for (int i = 0; i != N + 1; ++i)
      v[i] = k <= N ? (i == k) : sin(3.0 * k + i);
    double dx[N], dot = 0;
    for (int i = 0; i != N; ++i) {
      dx[i] = v[i];
      dot += grad[i] * v[i];
      lv[i] = v[i];
    }
    dot += gs * v[N];
    lv[N] = v[N];
    double tangent = __enzyme_fwddiff((void *)model, enzyme_dup, x, dx,
                                      enzyme_dup, s, v[N], N);
    gc_expect("model", "tangent = gradient . v", tangent, dot, 1e-12L);
    gc_tangent("model", model_at, N + 1, at, lv, tangent, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
