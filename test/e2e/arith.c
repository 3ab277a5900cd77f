// Checks gradients of double arithmetic (fadd, fsub, fmul, fdiv, fneg), of
// integer code mixed in (inactive), and of float<->double<->int conversions.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O0 -g %s -o %tg -lm && %tg
#include "gradcheck.h"

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
typedef struct { double dx, dy; } D2;
typedef struct { double dx, dy, dz; } D3;
// One declaration, several return types: the usual Enzyme idiom.
#define autodiff_d2 ((D2(*)(void *, ...))__enzyme_autodiff)
#define autodiff_d3 ((D3(*)(void *, ...))__enzyme_autodiff)

// One instruction each.
double add(double x, double y) { return x + y; }
double sub(double x, double y) { return x - y; }
double mul(double x, double y) { return x * y; }
double dvd(double x, double y) { return x / y; }
double neg(double x) { return -x; }
// The same value used several times, so adjoints must accumulate.
double poly(double x, double y, double z) {
  double t = x * y - z;
  return t * t * x - y / (z * x) + 3.0 * t - z;
}
// Degenerate shapes: an argument returned unchanged, an unused argument, a
// constant result.
double ident(double x) { return x; }
double first(double x, double y) { return x; }
double constant(double x) { return 3.0; }

// Integer arithmetic on an enzyme_const argument scales the result but has
// no derivative of its own.
double intmix(double x, int n) {
  int k = n * n % 7 + n / 2 - (n << 1);
  return x * k + (double)(k & 3) * x * x;
}
// float <-> double: the adjoint goes through the same conversions.
double narrow(double x, double y) {
  float fx = (float)x;              // fptrunc
  double back = fx;                 // fpext
  return back * y + (float)(x * y); // float product, widened again
}
// double -> int -> double truncates: a locally constant value, derivative 0.
double truncation(double x) { return (double)(int)x + (double)(long)(2 * x); }
double truncmix(double x) { return (int)(x * 3.0) * x + (unsigned)(x * x); }

static long double add_at(const long double *v) { return add(v[0], v[1]); }
static long double sub_at(const long double *v) { return sub(v[0], v[1]); }
static long double mul_at(const long double *v) { return mul(v[0], v[1]); }
static long double dvd_at(const long double *v) { return dvd(v[0], v[1]); }
static long double neg_at(const long double *v) { return neg(v[0]); }
static long double poly_at(const long double *v) {
  return poly(v[0], v[1], v[2]);
}
static int n_now; // the const argument the reference evaluates intmix with
static long double intmix_at(const long double *v) {
  return intmix(v[0], n_now);
}
static long double truncation_at(const long double *v) {
  return truncation(v[0]);
}
static long double truncmix_at(const long double *v) { return truncmix(v[0]); }

static void check2(const char *name, gc_fn f, double x, double y, D2 g) {
  gc_grad(name, f, 2, (long double[]){x, y}, (long double[]){g.dx, g.dy},
          GC_TOL_DOUBLE);
}

int main(void) {
  // Points on both sides of zero.
  const double xs[] = {0.7, -1.9, 3.25};
  const double ys[] = {1.3, 0.45, -2.5};
  for (int i = 0; i != 3; ++i) {
    double x = xs[i], y = ys[i], z = xs[(i + 1) % 3];
    check2("add", add_at, x, y, autodiff_d2((void *)add, x, y));
    check2("sub", sub_at, x, y, autodiff_d2((void *)sub, x, y));
    check2("mul", mul_at, x, y, autodiff_d2((void *)mul, x, y));
    check2("div", dvd_at, x, y, autodiff_d2((void *)dvd, x, y));
    gc_grad("neg", neg_at, 1, (long double[]){x},
            (long double[]){__enzyme_autodiff((void *)neg, x)}, GC_TOL_DOUBLE);
    D3 g = autodiff_d3((void *)poly, x, y, z);
    gc_grad("poly", poly_at, 3, (long double[]){x, y, z},
            (long double[]){g.dx, g.dy, g.dz}, GC_TOL_DOUBLE);

    gc_expect("ident", "d/dx", __enzyme_autodiff((void *)ident, x), 1, 0);
    D2 f = autodiff_d2((void *)first, x, y);
    gc_expect("first", "d/dx", f.dx, 1, 0);
    gc_expect("first", "d/dy (unused)", f.dy, 0, 0);
    gc_expect("constant", "d/dx", __enzyme_autodiff((void *)constant, x), 0,
              0);

    for (n_now = -3; n_now <= 4; n_now += 7) {
      gc_grad("intmix", intmix_at, 1, (long double[]){x},
              (long double[]){__enzyme_autodiff((void *)intmix, x,
                                                enzyme_const, n_now)},
              GC_TOL_DOUBLE);
    }

    // At float resolution `narrow` is a staircase, which finite differences
    // would only blur: compare with the closed form. The adjoint of a float
    // value is a float, so y reaches fx rounded to float (as in Enzyme).
    D2 nw = autodiff_d2((void *)narrow, x, y);
    gc_expect("narrow", "d/dx", nw.dx, (long double)(float)y + y,
              GC_TOL_DOUBLE);
    gc_expect("narrow", "d/dy", nw.dy, (long double)(float)x + x,
              GC_TOL_DOUBLE);

    gc_grad("truncation", truncation_at, 1, (long double[]){x},
            (long double[]){__enzyme_autodiff((void *)truncation, x)},
            GC_TOL_DOUBLE);
    gc_grad("truncmix", truncmix_at, 1, (long double[]){x},
            (long double[]){__enzyme_autodiff((void *)truncmix, x)},
            GC_TOL_DOUBLE);
  }
  return gc_finish();
}
