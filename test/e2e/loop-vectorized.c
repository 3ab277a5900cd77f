// Checks gradients through loops that the loop vectorizer vectorizes at
// -O2/-O3 (vector bodies with a scalar remainder: N is not a multiple of
// the vector width): reductions (allowed by `#pragma clang fp reassociate`
// in the function, or -ffast-math), a map into an output array whose
// shadow holds seeds on entry, a float dot product, selects, fmin/fmax and
// float-to-double conversion in the body. The arrays are too long for
// finite differences in every component: each gradient is checked against
// its closed form in every component, and against long-double finite
// differences (of the same body instantiated in long double) in a few.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O3 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O3 -march=x86-64-v3 %s -o %tv -lm && %tv
#include "gradcheck.h"
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

#define N 1003
/* Lets a reduction be reassociated, so that it is vectorized without
   -ffast-math. */
#define RED _Pragma("clang fp reassociate(on)")
/* Each body is instantiated for double (or float) and for long double. */
#define SUMSQ(T)                                                               \
  RED T s = 0;                                                                 \
  for (int i = 0; i < n; ++i)                                                  \
    s += x[i] * x[i];                                                          \
  return s;
double sumsq(const double *x, int n) { SUMSQ(double) }
static long double sumsq_l(const long double *x, int n) { SUMSQ(long double) }

/* z = a x + y (a map loop), then sum z_i^2 (sequential unless fast-math). */
#define SAXPY(T)                                                               \
  for (int i = 0; i < n; ++i)                                                  \
    z[i] = a * x[i] + y[i];                                                    \
  T s = 0;                                                                     \
  for (int i = 0; i < n; ++i)                                                  \
    s += z[i] * z[i];                                                          \
  return s;
double saxpy(double a, const double *x, const double *y, double *z, int n) {
  SAXPY(double)
}
static long double saxpy_l(long double a, const long double *x,
                           const long double *y, long double *z, int n) {
  SAXPY(long double)
}

#define DOT(T)                                                                 \
  RED T s = 0;                                                                 \
  for (int i = 0; i < n; ++i)                                                  \
    s += a[i] * b[i];                                                          \
  return s;
float fdot(const float *a, const float *b, int n) { DOT(float) }
static long double fdot_l(const long double *a, const long double *b, int n) {
  DOT(long double)
}

/* A select in the body: x^2 for x > 0, 0.1 x otherwise. */
#define PIECEWISE(T)                                                           \
  RED T s = 0;                                                                 \
  for (int i = 0; i < n; ++i)                                                  \
    s += x[i] > 0 ? x[i] * x[i] : (T)0.1 * x[i];                               \
  return s;
double piecewise(const double *x, int n) { PIECEWISE(double) }
static long double piecewise_l(const long double *x, int n) {
  PIECEWISE(long double)
}

/* Clipping to [-1, 1] with fmin/fmax, then a square. */
#define CLIP(T, S)                                                             \
  RED T s = 0;                                                                 \
  for (int i = 0; i < n; ++i) {                                                \
    T c = fmin##S(fmax##S(x[i], -1), 1);                                       \
    s += c * c;                                                                \
  }                                                                            \
  return s;
double clip(const double *x, int n) { CLIP(double, ) }
static long double clip_l(const long double *x, int n) { CLIP(long double, l) }

/* Floats widened to double in the body. */
#define WIDEN(T)                                                               \
  RED T s = 0;                                                                 \
  for (int i = 0; i < n; ++i)                                                  \
    s += (T)x[i] * x[i] * (i % 4 + 1);                                         \
  return s;
double widen(const float *x, int n) { WIDEN(double) }
static long double widen_l(const long double *x, int n) { WIDEN(long double) }

/* References for a few components: Pt holds the point (all active inputs
   concatenated), the component Comp is replaced by the FD variable. */
static long double Pt[2 * N + 1];
static int Comp;
static long double (*Fn)(const long double *);
static long double comp_at(const long double *v) {
  long double old = Pt[Comp];
  Pt[Comp] = v[0];
  long double r = Fn(Pt);
  Pt[Comp] = old;
  return r;
}
static void check_fd(const char *name, long double (*f)(const long double *),
                     int n, const double *g, long double tol) {
  const int ks[] = {0, 1, 2, 3, 4, 5, 7, 500, 997, 1000, 1001, 1002};
  Fn = f;
  for (int k = 0; k != sizeof ks / sizeof *ks; ++k)
    for (int c = ks[k]; c < n; c += N) { // each array of the point
      long double p = Pt[c], gc = g[c];
      Comp = c;
      gc_grad(name, comp_at, 1, &p, &gc, tol);
    }
}
static long double Seed[N];
static long double sumsq_at(const long double *v) { return sumsq_l(v, N); }
static long double saxpy_at(const long double *v) { // v: x, y, then a
  long double z[N], s = saxpy_l(v[2 * N], v, v + N, z, N);
  for (int i = 0; i != N; ++i)
    s += Seed[i] * z[i];
  return s;
}
static long double fdot_at(const long double *v) { return fdot_l(v, v + N, N); }
static long double piecewise_at(const long double *v) {
  return piecewise_l(v, N);
}
static long double clip_at(const long double *v) { return clip_l(v, N); }
static long double widen_at(const long double *v) { return widen_l(v, N); }

int main(void) {
  static double x[N], y[N], z[N], dz[N], g[2 * N + 1];
  static float xf[N], yf[N], gf[2 * N];
  for (int i = 0; i != N; ++i) {
    /* In (-1.7, 1.7), at least 0.02 away from the kinks at 0 and +-1. */
    double v = 1.7 * sin(0.61 * i + 0.3);
    if (fabs(v) < 0.05 || fabs(fabs(v) - 1) < 0.05)
      v *= 1.1;
    x[i] = v, y[i] = cos(0.37 * i), xf[i] = (float)v, yf[i] = (float)y[i];
    Pt[i] = x[i], Pt[N + i] = y[i];
  }
  memset(g, 0, sizeof g);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i != N; ++i)
    gc_expect("sumsq", "2 x", g[i], 2 * x[i], GC_TOL_DOUBLE);
  check_fd("sumsq", sumsq_at, N, g, GC_TOL_DOUBLE);

  /* Seeds 0.25 (i odd) on the output z: consumed, shadow zero on exit. */
  memset(g, 0, sizeof g);
  for (int i = 0; i != N; ++i)
    Seed[i] = dz[i] = (i & 1) * 0.25;
  const double a = 0.7;
  g[2 * N] = __enzyme_autodiff((void *)saxpy, a, x, g, y, g + N, z, dz, N);
  Pt[2 * N] = a;
  long double da = 0;
  for (int i = 0; i != N; ++i) {
    long double zi = a * x[i] + y[i], adj = 2 * zi + Seed[i];
    gc_expect("saxpy", "dx = a (2 z + seed)", g[i], a * adj, GC_TOL_DOUBLE);
    gc_expect("saxpy", "dy = 2 z + seed", g[N + i], adj, GC_TOL_DOUBLE);
    gc_expect("saxpy", "seed consumed", dz[i], 0, 0);
    gc_expect("saxpy", "z written", z[i], zi, 1e-15L);
    da += x[i] * adj;
  }
  gc_expect("saxpy", "da = sum x (2 z + seed)", g[2 * N], da, GC_TOL_DOUBLE);
  check_fd("saxpy", saxpy_at, 2 * N + 1, g, GC_TOL_DOUBLE);

  memset(gf, 0, sizeof gf);
  __enzyme_autodiff((void *)fdot, xf, gf, yf, gf + N, N);
  for (int i = 0; i != N; ++i) {
    gc_expect("fdot", "da = b", gf[i], yf[i], GC_TOL_FLOAT);
    gc_expect("fdot", "db = a", gf[N + i], xf[i], GC_TOL_FLOAT);
    Pt[i] = xf[i], Pt[N + i] = yf[i];
    g[i] = gf[i], g[N + i] = gf[N + i];
  }
  check_fd("fdot", fdot_at, 2 * N, g, GC_TOL_FLOAT);

  for (int i = 0; i != N; ++i)
    Pt[i] = x[i];
  memset(g, 0, sizeof g);
  __enzyme_autodiff((void *)piecewise, x, g, N);
  for (int i = 0; i != N; ++i)
    gc_expect("piecewise", "2 x or 0.1", g[i], x[i] > 0 ? 2 * x[i] : 0.1,
              GC_TOL_DOUBLE);
  check_fd("piecewise", piecewise_at, N, g, GC_TOL_DOUBLE);

  memset(g, 0, sizeof g);
  __enzyme_autodiff((void *)clip, x, g, N);
  for (int i = 0; i != N; ++i)
    gc_expect("clip", "2 x or 0", g[i], fabs(x[i]) < 1 ? 2 * x[i] : 0,
              GC_TOL_DOUBLE);
  check_fd("clip", clip_at, N, g, GC_TOL_DOUBLE);

  memset(gf, 0, sizeof gf);
  __enzyme_autodiff((void *)widen, xf, gf, N);
  for (int i = 0; i != N; ++i) {
    gc_expect("widen", "2 x (i % 4 + 1)", gf[i], 2.0L * xf[i] * (i % 4 + 1),
              GC_TOL_FLOAT);
    Pt[i] = xf[i], g[i] = gf[i];
  }
  check_fd("widen", widen_at, N, g, GC_TOL_FLOAT);
  return gc_finish();
}
