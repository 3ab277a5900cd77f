// Checks gradients in float, long double (x86_fp80) and _Float16, each as
// argument and as return type, and functions mixing them with double.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

double __enzyme_autodiff(void *, ...);
typedef struct { float dx, dy; } F2;
typedef struct { long double dx, dy; } L2;
typedef struct { _Float16 dx, dy; } H2;
typedef struct { long double dx; double dy; float dz; } M3;
#define autodiff_f ((float (*)(void *, ...))__enzyme_autodiff)
#define autodiff_l ((long double (*)(void *, ...))__enzyme_autodiff)
#define autodiff_l2 ((L2(*)(void *, ...))__enzyme_autodiff)
#define autodiff_h ((_Float16(*)(void *, ...))__enzyme_autodiff)
#define autodiff_h2 ((H2(*)(void *, ...))__enzyme_autodiff)
#define autodiff_m3 ((M3(*)(void *, ...))__enzyme_autodiff)
// A struct of two floats comes back as <2 x float>. Casting the double
// declaration to that type is not optimization-proof (instcombine turns
// the call back into a double one and bitcasts the result), so this entry
// gets its own declaration; any name with the __enzyme_autodiff prefix is
// the API, as in Enzyme.
F2 __enzyme_autodiff_f2(void *, ...);

// Each body is written once and also instantiated in long double, so that
// the finite differences do not inherit float or half rounding.
#define POLY(x, y) ((x) * (y) * (y) - (x) / (y) + 2 * (x) - (y))
#define QUAD(x) ((x) * (x) - 3 * (x))

float fpoly(float x, float y) { return POLY(x, y); }
float fquad(float x) { return QUAD(x); }
long double lpoly(long double x, long double y) { return POLY(x, y); }
long double lquad(long double x) { return QUAD(x); }
_Float16 hpoly(_Float16 x, _Float16 y) { return POLY(x, y); }
_Float16 hquad(_Float16 x) { return QUAD(x); }

// Branches, selects and a switch, the same in each type (SIN is the sine of
// that precision).
#define BRANCHY(T, name, SIN)                                                  \
  T name(T x) {                                                                \
    if (x > 1)                                                                 \
      return x * x;                                                            \
    T r = x < 0 ? -x * 3 : x;                                                  \
    switch ((int)(x * 4)) {                                                    \
    case 1:                                                                    \
      return r * r * r;                                                        \
    case 2:                                                                    \
      r = (T)SIN(r);                                                           \
    }                                                                          \
    return r;                                                                  \
  }
BRANCHY(float, fbranchy, sinf)
BRANCHY(long double, lbranchy, sinl)
BRANCHY(_Float16, hbranchy, sinf)

// Mixed precisions: the return type and the argument types differ.
float ret_float(double x) { return (float)(x * x) + (float)x; }
double from_float(float x) { return (double)x * x * x; }
double from_half(_Float16 x) { return (double)x * 4.0 - x * x; }
// Conversions between the extended and the narrow types.
long double half_to_ld(_Float16 x) {
  long double y = x;
  return y * y;
}
_Float16 ld_to_half(long double x) { return (_Float16)(x * 3); }
float ld_to_float(long double x) { return (float)x * (float)x; }
long double mixed(long double x, double y, float z) {
  return x * y + y * z - x / z;
}

static long double poly_at(const long double *v) { return POLY(v[0], v[1]); }
static long double quad_at(const long double *v) { return QUAD(v[0]); }
static long double ret_float_at(const long double *v) {
  return v[0] * v[0] + v[0];
}
static long double cube_at(const long double *v) { return v[0] * v[0] * v[0]; }
static long double from_half_at(const long double *v) {
  return v[0] * 4 - v[0] * v[0];
}
static long double branchy_at(const long double *v) { return lbranchy(v[0]); }
static long double mixed_at(const long double *v) {
  return v[0] * v[1] + v[1] * v[2] - v[0] / v[2];
}

int main(void) {
  // Exact in every type, _Float16 included; on both sides of zero.
  const float xs[] = {0.75f, -1.5f, 2.5f};
  const float ys[] = {1.25f, 0.5f, -2.0f};
  for (int i = 0; i != 3; ++i) {
    float x = xs[i], y = ys[i];
    long double p[] = {x, y};

    F2 gf = __enzyme_autodiff_f2((void *)fpoly, x, y);
    gc_grad("float poly", poly_at, 2, p, (long double[]){gf.dx, gf.dy},
            GC_TOL_FLOAT);
    gc_grad("float quad", quad_at, 1, p,
            (long double[]){autodiff_f((void *)fquad, x)}, GC_TOL_FLOAT);

    L2 gl = autodiff_l2((void *)lpoly, (long double)x, (long double)y);
    gc_grad("long double poly", poly_at, 2, p, (long double[]){gl.dx, gl.dy},
            GC_TOL_LDOUBLE);
    gc_grad("long double quad", quad_at, 1, p,
            (long double[]){autodiff_l((void *)lquad, (long double)x)},
            GC_TOL_LDOUBLE);

    H2 gh = autodiff_h2((void *)hpoly, (_Float16)x, (_Float16)y);
    gc_grad("half poly", poly_at, 2, p, (long double[]){gh.dx, gh.dy},
            GC_TOL_HALF);
    gc_grad("half quad", quad_at, 1, p,
            (long double[]){autodiff_h((void *)hquad, (_Float16)x)},
            GC_TOL_HALF);

    gc_grad("float return", ret_float_at, 1, p,
            (long double[]){__enzyme_autodiff((void *)ret_float, (double)x)},
            GC_TOL_FLOAT);
    // x is promoted to double by the variadic call; the gradient is a float.
    gc_grad("float argument", cube_at, 1, p,
            (long double[]){autodiff_f((void *)from_float, x)}, GC_TOL_FLOAT);
    gc_grad("half argument", from_half_at, 1, p,
            (long double[]){autodiff_h((void *)from_half, (_Float16)x)},
            GC_TOL_HALF);

    // Closed forms: the conversions are exact at these points.
    gc_expect("half to long double", "dx",
              autodiff_l((void *)half_to_ld, (_Float16)x), 2 * p[0],
              GC_TOL_LDOUBLE);
    gc_expect("long double to half", "dx",
              autodiff_h((void *)ld_to_half, (long double)x), 3, GC_TOL_HALF);
    gc_expect("long double to float", "dx",
              autodiff_f((void *)ld_to_float, (long double)x), 2 * p[0],
              GC_TOL_FLOAT);

    // Three gradients of three types: returned through sret.
    long double q[] = {x, y, 1.5f + i};
    M3 gm = autodiff_m3((void *)mixed, q[0], (double)q[1], (float)q[2]);
    gc_grad("mixed", mixed_at, 3, q, (long double[]){gm.dx, gm.dy, gm.dz},
            GC_TOL_FLOAT);
  }
  // One point per path through BRANCHY; exact in half precision.
  const float bs[] = {1.5f, -0.5f, 0.375f, 0.625f, 0.125f};
  for (int i = 0; i != 5; ++i) {
    long double x = bs[i];
    gc_grad("float branchy", branchy_at, 1, &x,
            (long double[]){autodiff_f((void *)fbranchy, bs[i])},
            GC_TOL_FLOAT);
    gc_grad("long double branchy", branchy_at, 1, &x,
            (long double[]){autodiff_l((void *)lbranchy, x)}, GC_TOL_LDOUBLE);
    gc_grad("half branchy", branchy_at, 1, &x,
            (long double[]){autodiff_h((void *)hbranchy, (_Float16)bs[i])},
            GC_TOL_HALF);
  }
  return gc_finish();
}
