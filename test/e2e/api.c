// Checks the calling conventions of __enzyme_autodiff: default and explicit
// activities, the return types of the call, variadic promotions, sharing of
// generated functions, and markers the program never defines.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O0 -g %s -o %tg -lm && %tg
//
// Sharing: one generated function per (function, activity pattern). f3 is
// requested with four patterns (some of them from several calls), scaled
// with one (a marker that spells out the default).
// RUN: %clang-adjoint -O0 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=F3 < %t.ll
// RUN: FileCheck %s --check-prefix=SCALED < %t.ll
// F3-COUNT-4: define internal {{.*}}@f3.
// F3-NOT: define internal {{.*}}@f3.
// SCALED: define internal {{.*}}@scaled.
// SCALED-NOT: define internal {{.*}}@scaled.
#include "gradcheck.h"

// Declared, never defined: the plugin must make the program link anyway.
extern int enzyme_const, enzyme_out, enzyme_dup, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
typedef struct { double dx, dy; } D2;
typedef struct { double dx, dy, dz; } D3;
typedef struct { double dx, dz; } D2xz;
typedef struct { float dx, dy, dz; } F3;          // {<2 x float>, float}
typedef struct { float dx, dy, dz, dw; } F4;      // {<2 x float>, <2 x float>}
typedef struct { double dx; struct { double dy, dz; } rest; } Nested;
typedef struct { double dx; float dy; } DF;
typedef struct { double d0, d1, d2, d3, d4, d5, d6, d7, d8, d9; } D10;
#define autodiff_d10 ((D10(*)(void *, ...))__enzyme_autodiff)
#define autodiff_f3 ((F3(*)(void *, ...))__enzyme_autodiff)
#define autodiff_f4 ((F4(*)(void *, ...))__enzyme_autodiff)
#define autodiff_nested ((Nested(*)(void *, ...))__enzyme_autodiff)
#define autodiff_df ((DF(*)(void *, ...))__enzyme_autodiff)
#define autodiff_void ((void (*)(void *, ...))__enzyme_autodiff)
#define autodiff_float ((float (*)(void *, ...))__enzyme_autodiff)
#define autodiff_d2 ((D2(*)(void *, ...))__enzyme_autodiff)
#define autodiff_d3 ((D3(*)(void *, ...))__enzyme_autodiff)
#define autodiff_d2xz ((D2xz(*)(void *, ...))__enzyme_autodiff)

double f3(double x, double y, double z) { return x * y * y + sin(z) * x; }
static long double f3_at(const long double *v) { return f3(v[0], v[1], v[2]); }

// int parameters are const by default, with or without a marker.
double scaled(int n, double x, long k) { return n * x * x + (double)k * x; }

// Every kind of integer parameter, each promoted by the variadic call and
// narrowed back by the plugin.
double ints(_Bool b, char c, double x, short s, unsigned char uc, long long ll,
            unsigned u) {
  return (b ? x * c : x) + x * x * s + uc * x + (double)ll * x + u;
}

// Gradients of linear functions, to check the layout of returned structs.
float lin3(float x, float y, float z) { return x + 2 * y + 3 * z; }
float lin4(float x, float y, float z, float w) {
  return x + 2 * y + 3 * z + 4 * w;
}
double lin_df(double x, float y) { return x + 2 * y; }

// More arguments than registers, so most are passed on the stack; const
// ones in between, and a float gradient widened into a double field.
double many(double a0, int i0, double a1, double a2, double a3, double a4,
            long double l, double a5, double a6, double a7, float a8,
            double a9) {
  // Under -ffast-math this sum would become llvm.vector.reduce.fadd, which
  // has no rule yet (bug reported; vectorized.c covers what works).
#pragma clang fp reassociate(off)
  return a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 +
         9 * a8 + 10 * a9 + i0 * l;
}

// float parameters receive the variadic call's doubles.
float fmix(float x, double y, float z) { return x * (float)y + z * z * x; }
static long double fmix_at(const long double *v) {
  return v[0] * v[1] + v[2] * v[2] * v[0];
}

// A static function, also called directly (the plugin must not change it).
static double twice(double x) { return 2.0 * x * x; }

// Gradients requested from a helper, with the function to differentiate
// passed in several spellings.
static D2 grad_from_helper(double x, double y) {
  D3 g = autodiff_d3(f3, x, y, 0.25);
  D3 h = autodiff_d3(&f3, x, y, 0.25);
  return (D2){g.dx + h.dx, g.dy + h.dy};
}

int main(void) {
  const double pts[][3] = {{0.7, 1.3, -0.4}, {-1.2, 0.5, 2.0}};
  for (int i = 0; i != 2; ++i) {
    double x = pts[i][0], y = pts[i][1], z = pts[i][2];
    long double p[] = {x, y, z};
    long double dx = gc_fd(f3_at, p, 3, 0), dy = gc_fd(f3_at, p, 3, 1),
                dz = gc_fd(f3_at, p, 3, 2);

    // No markers: every double is enzyme_out, three gradients come back
    // in a struct returned through sret.
    D3 a = autodiff_d3((void *)f3, x, y, z);
    gc_expect("defaults", "dx", a.dx, dx, GC_TOL_DOUBLE);
    gc_expect("defaults", "dy", a.dy, dy, GC_TOL_DOUBLE);
    gc_expect("defaults", "dz", a.dz, dz, GC_TOL_DOUBLE);
    // All explicit: the same pattern, so the same generated function.
    D3 b = autodiff_d3((void *)f3, enzyme_out, x, enzyme_out, y, enzyme_out, z);
    gc_expect("explicit out", "dx", b.dx, dx, GC_TOL_DOUBLE);
    gc_expect("explicit out", "dy", b.dy, dy, GC_TOL_DOUBLE);
    gc_expect("explicit out", "dz", b.dz, dz, GC_TOL_DOUBLE);
    // Other activity patterns of the same function: the gradients of the
    // remaining enzyme_out arguments, in argument order.
    D2xz c = autodiff_d2xz((void *)f3, x, enzyme_const, y, z);
    gc_expect("const y", "dx", c.dx, dx, GC_TOL_DOUBLE);
    gc_expect("const y", "dz", c.dz, dz, GC_TOL_DOUBLE);
    double d = __enzyme_autodiff((void *)f3, enzyme_const, x, y, enzyme_const,
                                 z);
    gc_expect("const x, z", "dy", d, dy, GC_TOL_DOUBLE);
    // No enzyme_out argument at all: a void call. It must still run (and
    // not disturb the caller's values).
    double keep = x;
    autodiff_void((void *)f3, enzyme_const, x, enzyme_const, y, enzyme_const,
                  z);
    gc_expect("all const", "caller's x", keep, x, 0);

    // The function and a marker held in local variables first: at -O0 they
    // reach the call through stack slots.
    void *fn = (void *)f3;
    int marker = enzyme_const;
    D2xz e = autodiff_d2xz(fn, x, marker, y, z);
    gc_expect("locals", "dx", e.dx, dx, GC_TOL_DOUBLE);
    gc_expect("locals", "dz", e.dz, dz, GC_TOL_DOUBLE);

    // The gradient-returning helper sums two identical requests.
    D2 h = grad_from_helper(x, y);
    long double q[] = {x, y, 0.25};
    gc_expect("helper", "dx", h.dx, 2 * gc_fd(f3_at, q, 3, 0), GC_TOL_DOUBLE);
    gc_expect("helper", "dy", h.dy, 2 * gc_fd(f3_at, q, 3, 1), GC_TOL_DOUBLE);

    // Integer arguments: const without a marker, or with one.
    for (int n = -2; n <= 3; n += 5) {
      long double want = 2.0L * n * x + 7;
      gc_expect("int default", "dx",
                __enzyme_autodiff((void *)scaled, n, x, 7L), want,
                GC_TOL_DOUBLE);
      gc_expect("int marked", "dx",
                __enzyme_autodiff((void *)scaled, enzyme_const, n, x,
                                  enzyme_const, 7L),
                want, GC_TOL_DOUBLE);
    }

    gc_expect("integer kinds", "dx",
              __enzyme_autodiff((void *)ints, (_Bool)1, (char)-3, x,
                                (short)-2, (unsigned char)200, 7LL, 9u),
              -3 - 4 * x + 200 + 7, GC_TOL_DOUBLE);

    // Return layouts after ABI lowering, each field in argument order.
    F3 g3 = autodiff_f3((void *)lin3, 1.0f, (float)x, 2.0f);
    gc_expect("F3", "fields", g3.dx + 10 * g3.dy + 100 * g3.dz, 321, 0);
    F4 g4 = autodiff_f4((void *)lin4, 1.0f, (float)x, 2.0f, (float)y);
    gc_expect("F4", "fields",
              g4.dx + 10 * g4.dy + 100 * g4.dz + 1000 * g4.dw, 4321, 0);
    Nested nest = autodiff_nested((void *)f3, x, y, z);
    gc_expect("nested struct", "dx", nest.dx, dx, GC_TOL_DOUBLE);
    gc_expect("nested struct", "dy", nest.rest.dy, dy, GC_TOL_DOUBLE);
    gc_expect("nested struct", "dz", nest.rest.dz, dz, GC_TOL_DOUBLE);
    D10 m = autodiff_d10((void *)many, x, 5, y, z, x, y, enzyme_const, 2.0L,
                         z, x, y, (float)z, x);
    const double *md = &m.d0;
    for (int k = 0; k != 10; ++k)
      gc_expect("many arguments", "d(k)", md[k], k + 1, 0);
    DF df = autodiff_df((void *)lin_df, x, (float)y);
    gc_expect("double, float", "fields", df.dx + 10 * df.dy, 21, 0);

    // float parameters given doubles (the variadic promotion): one float
    // gradient, read as float and as double.
    float fx = (float)x, fz = (float)z;
    long double r[] = {fx, y, fz};
    float g1 = autodiff_float((void *)fmix, fx, enzyme_const, y, enzyme_const,
                              fz);
    gc_expect("float gradient", "dx", g1, gc_fd(fmix_at, r, 3, 0),
              GC_TOL_FLOAT);
    double g2 = __enzyme_autodiff((void *)fmix, enzyme_const, fx,
                                  enzyme_const, y, 1.5);
    r[2] = 1.5;
    gc_expect("float gradient as double", "dz", g2, gc_fd(fmix_at, r, 3, 2),
              GC_TOL_FLOAT);

    // A static function, differentiated and called directly.
    gc_expect("static", "dx", __enzyme_autodiff((void *)twice, x), 4 * x,
              GC_TOL_DOUBLE);
    gc_expect("static", "primal", twice(x), 2 * x * x, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
