// Forward mode on scalar code: arithmetic and libm functions (double,
// float, long double), floating-point values duplicated by default (value,
// tangent) or explicitly with enzyme_dup, enzyme_const values, integer
// parameters, branches, a vector parameter, a function returning nothing
// but writing through a pointer, and a tangent seeded along several inputs
// at once. References: long-double finite differences of the same C code
// (floats: the same body instantiated in long double).
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
long double __enzyme_fwddiff_l(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

double mix(double x, double y) {
  return sin(x) * exp(y) + x * x / y - pow(x, 1.5) + atan2(y, x) +
         hypot(x, y) * log(y) + sqrt(x * y) + tanh(x - y) + fmax(x, y / 2);
}
static long double mix_at(const long double *v) { return mix(v[0], v[1]); }

/* A branch on the value; an integer parameter (enzyme_const by default). */
double piecewise(double x, int n) {
  double r = x;
  if (x > 0.5)
    r = x * x * n;
  else
    r = cos(x) + n;
  return fabs(r) + cbrt(r) + erf(x) + expm1(x) + log1p(x);
}
static int PieceN = 3;
static long double piecewise_at(const long double *v) {
  return piecewise(v[0], PieceN);
}

#define SINGLE_BODY(T, x, y) (T)(x) * (y) + sinf(x) / (1 + (y) * (y))
float single(float x, float y) { return SINGLE_BODY(float, x, y); }
static long double single_at(const long double *v) {
  return v[0] * v[1] + sinl(v[0]) / (1 + v[1] * v[1]);
}

long double extended(long double x, long double y) {
  return expl(x) * y + logl(y) * x * x;
}
static long double extended_at(const long double *v) {
  return extended(v[0], v[1]);
}

typedef double v2d __attribute__((vector_size(16)));
double lanes(v2d v, double s) {
  v2d w = v * v * s;
  return w[0] + 2 * w[1] + sin(v[0]);
}
static long double lanes_at(const long double *p) {
  v2d v = {p[0], p[1]};
  return lanes(v, p[2]);
}

/* No return value: the tangent of what it writes lands in the shadow. */
void polar(double r, double t, double *xy) {
  xy[0] = r * cos(t);
  xy[1] = r * sin(t);
}
static int PolarOut;
static long double polar_at(const long double *v) {
  double xy[2];
  polar(v[0], v[1], xy);
  return xy[PolarOut];
}

int main(void) {
  /* Default: each double is followed by its tangent. One input at a time,
     then a direction combining both. */
  gc_tangent("mix dx", mix_at, 2, (long double[]){0.7, 1.3},
             (long double[]){1, 0},
             __enzyme_fwddiff((void *)mix, 0.7, 1.0, 1.3, 0.0), GC_TOL_DOUBLE);
  gc_tangent("mix dy", mix_at, 2, (long double[]){0.7, 1.3},
             (long double[]){0, 1},
             __enzyme_fwddiff((void *)mix, 0.7, 0.0, 1.3, 1.0), GC_TOL_DOUBLE);
  gc_tangent("mix dir", mix_at, 2, (long double[]){0.7, 1.3},
             (long double[]){0.25, -2},
             __enzyme_fwddiff((void *)mix, enzyme_dup, 0.7, 0.25, enzyme_dup,
                              1.3, -2.0),
             GC_TOL_DOUBLE);
  /* enzyme_const: no tangent is passed for it. */
  gc_tangent("mix const y", mix_at, 2, (long double[]){0.7, 1.3},
             (long double[]){3, 0},
             __enzyme_fwddiff((void *)mix, 0.7, 3.0, enzyme_const, 1.3),
             GC_TOL_DOUBLE);
  for (double x = 0.25; x < 1; x += 0.5)
    gc_tangent("piecewise", piecewise_at, 1, (long double[]){x},
               (long double[]){1},
               __enzyme_fwddiff((void *)piecewise, x, 1.0, PieceN),
               GC_TOL_DOUBLE);
  /* A float tangent arrives promoted to double and is converted back. */
  gc_tangent("single", single_at, 2, (long double[]){0.5f, 2.0f},
             (long double[]){1, 0.5f},
             __enzyme_fwddiff_f((void *)single, 0.5f, 1.0f, 2.0f, 0.5f),
             GC_TOL_FLOAT);
  gc_tangent("extended", extended_at, 2, (long double[]){0.3L, 1.7L},
             (long double[]){1, 1},
             __enzyme_fwddiff_l((void *)extended, 0.3L, 1.0L, 1.7L, 1.0L),
             GC_TOL_LDOUBLE);
  /* A vector value: its tangent is a vector too. */
  v2d v = {0.4, 0.9}, dv = {1, -1};
  gc_tangent("lanes", lanes_at, 3, (long double[]){0.4, 0.9, 1.5},
             (long double[]){1, -1, 0.5},
             __enzyme_fwddiff((void *)lanes, v, dv, 1.5, 0.5), GC_TOL_DOUBLE);
  for (PolarOut = 0; PolarOut != 2; ++PolarOut) {
    double xy[2], dxy[2] = {0, 0};
    __enzyme_fwddiff_v((void *)polar, 2.0, 0.5, 0.6, 1.0, xy, dxy);
    gc_tangent("polar", polar_at, 2, (long double[]){2.0, 0.6},
               (long double[]){0.5, 1}, dxy[PolarOut], GC_TOL_DOUBLE);
    gc_expect("polar value", "xy", xy[PolarOut], polar_at((long double[]){2.0, 0.6}), GC_TOL_DOUBLE);
  }
  return gc_finish();
}
