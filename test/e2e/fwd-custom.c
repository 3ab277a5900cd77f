// Registered forward derivatives (__enzyme_register_derivative_NAME): a
// call of the registered function, even three calls deep and inlined into
// its callers by the optimizer, keeps calling the function and then calls
// its derivative for the tangents, which is never differentiated from the
// function's body. Checked three ways: a derivative that is deliberately
// twice the true one (against the closed form of what it gives), a
// function whose body cannot be differentiated at all (bit manipulation of
// a double), and a count of the derivative's calls. Pointer arguments get
// shadows, inactive floating-point arguments a zero tangent. A request for
// the registered function itself calls its derivative too, and one
// registered for a libm function replaces the rule table's.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);

static int CubeCalls, RootCalls;

/* Its registered derivative is twice the true one. */
static double cube(double x) { return x * x * x; }
static double cube_fwd(double x, double dx) {
  ++CubeCalls;
  return 2 * (3 * x * x) * dx;
}
void *__enzyme_register_derivative_cube[2] = {(void *)cube, (void *)cube_fwd};

static double level3(double x) { return cube(x) + x; }
static double level2(double x) { return sin(level3(x)); }
double level1(double x) { return 2 * level2(x) + x; }

/* sqrt(v[0]^2 + v[1]^2) through a bit-level first guess: not
   differentiable by the plugin, so only the registered derivative can give
   its tangent. */
static void norm2(const double *v, double *out) {
  double s = v[0] * v[0] + v[1] * v[1];
  uint64_t bits;
  memcpy(&bits, &s, sizeof bits);
  bits = (bits >> 1) + (UINT64_C(1023) << 51);
  double r;
  memcpy(&r, &bits, sizeof r);
  for (int i = 0; i < 6; ++i)
    r = 0.5 * (r + s / r);
  *out = r;
}
static void norm2_fwd(const double *v, const double *dv, double *out,
                      double *dout) {
  ++RootCalls;
  *dout = (v[0] * dv[0] + v[1] * dv[1]) / *out; /* *out: norm2 ran first */
}
void *__enzyme_register_derivative_norm2[2] = {(void *)norm2,
                                               (void *)norm2_fwd};

/* A scale factor that is constant at the call: its tangent is zero. */
static double scale(double x, double c) { return x * c; }
static double scale_fwd(double x, double dx, double c, double dc) {
  return dx * c + x * dc;
}
void *__enzyme_register_derivative_scale[2] = {(void *)scale,
                                               (void *)scale_fwd};

/* A registered derivative wins over the rule table: this one for libm's
   cbrt is deliberately wrong (1/2 everywhere). */
static double cbrt_fwd(double x, double dx) { return 0.5 * dx; }
void *__enzyme_register_derivative_cbrt[2] = {(void *)cbrt, (void *)cbrt_fwd};
double root(double x) { return cbrt(x) + x; }

double distance(double x, double y) {
  double v[2] = {scale(x, 3.0), y}, n;
  norm2(v, &n);
  return n * x;
}
static long double distance_at(const long double *v) {
  return v[0] * sqrtl(9 * v[0] * v[0] + v[1] * v[1]);
}

int main(void) {
  for (double x = -0.5; x < 1; x += 0.75) {
    int before = CubeCalls;
    double got = __enzyme_fwddiff((void *)level1, x, 1.0);
    /* d/dx [2 sin(x^3 + x) + x] with the registered (x^3)' = 6 x^2. */
    double want = 2 * cos(x * x * x + x) * (6 * x * x + 1) + 1;
    gc_expect("level1", "tangent with the registered derivative", got, want,
              GC_TOL_DOUBLE);
    gc_expect("level1", "calls of cube_fwd", CubeCalls - before, 1, 0);
  }
  /* A request for the registered function itself uses its derivative. */
  gc_expect("cube", "tangent with the registered derivative",
            __enzyme_fwddiff((void *)cube, 1.5, 0.5), 6 * 1.5 * 1.5 * 0.5,
            GC_TOL_DOUBLE);
  gc_expect("root", "tangent with the registered derivative of cbrt",
            __enzyme_fwddiff((void *)root, 2.0, 2.0), 2 * (0.5 + 1),
            GC_TOL_DOUBLE);
  int before = RootCalls;
  gc_tangent("distance", distance_at, 2, (long double[]){0.8, -1.5},
             (long double[]){1, 2},
             __enzyme_fwddiff((void *)distance, 0.8, 1.0, -1.5, 2.0),
             GC_TOL_DOUBLE);
  gc_expect("distance", "calls of norm2_fwd", RootCalls - before, 1, 0);
  gc_tangent("distance y", distance_at, 2, (long double[]){0.8, -1.5},
             (long double[]){0, 1},
             __enzyme_fwddiff((void *)distance, enzyme_const, 0.8, -1.5, 1.0),
             GC_TOL_DOUBLE);
  return gc_finish();
}
