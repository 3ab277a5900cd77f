// Checks the gradient of every math function of DerivativeRules.def in
// double, as a libm call (-O0, math-errno) and as an LLVM intrinsic
// (-fno-math-errno, -ffast-math), inside its domain and away from kinks.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -fno-math-errno %s -o %tn -lm && %tn
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

// C23's fminimum and fmaximum (glibc 2.35+): <math.h> declares them only
// for -std=c2x.
double fminimum(double, double);
double fmaximum(double, double);

double __enzyme_autodiff(void *, ...);
typedef struct { double dx, dy; } D2;
typedef struct { double dx, dy, dz; } D3;
#define autodiff_d2 ((D2(*)(void *, ...))__enzyme_autodiff)
#define autodiff_d3 ((D3(*)(void *, ...))__enzyme_autodiff)

// DEFn(name, expr) defines `double name(...)` returning expr of the
// arguments x, y, z, and name_at, its evaluation for the finite differences.
#define DEF1(name, expr)                                                       \
  double name(double x) { return expr; }                                       \
  static long double name##_at(const long double *v) { return name(v[0]); }
#define DEF2(name, expr)                                                       \
  double name(double x, double y) { return expr; }                             \
  static long double name##_at(const long double *v) {                         \
    return name(v[0], v[1]);                                                   \
  }
#define DEF3(name, expr)                                                       \
  double name(double x, double y, double z) { return expr; }                   \
  static long double name##_at(const long double *v) {                         \
    return name(v[0], v[1], v[2]);                                             \
  }

// CHECKn(name, points...) checks name's gradient at each point (n values).
#define CHECK1(name, ...)                                                      \
  do {                                                                         \
    const double p_[] = {__VA_ARGS__};                                         \
    for (unsigned i_ = 0; i_ != sizeof p_ / sizeof *p_; ++i_)                  \
      gc_grad(#name, name##_at, 1, (long double[]){p_[i_]},                    \
              (long double[]){__enzyme_autodiff((void *)name, p_[i_])},        \
              GC_TOL_DOUBLE);                                                  \
  } while (0)
#define CHECK2(name, ...)                                                      \
  do {                                                                         \
    const double p_[] = {__VA_ARGS__};                                         \
    for (unsigned i_ = 0; i_ != sizeof p_ / sizeof *p_; i_ += 2) {             \
      D2 g_ = autodiff_d2((void *)name, p_[i_], p_[i_ + 1]);                   \
      gc_grad(#name, name##_at, 2, (long double[]){p_[i_], p_[i_ + 1]},        \
              (long double[]){g_.dx, g_.dy}, GC_TOL_DOUBLE);                   \
    }                                                                          \
  } while (0)
#define CHECK3(name, ...)                                                      \
  do {                                                                         \
    const double p_[] = {__VA_ARGS__};                                         \
    for (unsigned i_ = 0; i_ != sizeof p_ / sizeof *p_; i_ += 3) {             \
      D3 g_ = autodiff_d3((void *)name, p_[i_], p_[i_ + 1], p_[i_ + 2]);       \
      gc_grad(#name, name##_at, 3,                                             \
              (long double[]){p_[i_], p_[i_ + 1], p_[i_ + 2]},                 \
              (long double[]){g_.dx, g_.dy, g_.dz}, GC_TOL_DOUBLE);            \
    }                                                                          \
  } while (0)

// Powers and roots.
DEF1(d_sqrt, sqrt(x))
DEF1(d_cbrt, cbrt(x))
DEF2(d_pow, pow(x, y))
DEF1(d_pow_int, pow(x, 3.0))   // negative bases are fine with an int power
DEF1(d_pow_half, pow(x, 2.5))
DEF1(d_powi3, __builtin_powi(x, 3))
DEF1(d_powi_neg, __builtin_powi(x, -2))
DEF2(d_hypot, hypot(x, y))
// Exponentials and logarithms.
DEF1(d_exp, exp(x))
DEF1(d_exp2, exp2(x))
DEF1(d_expm1, expm1(x))
DEF1(d_log, log(x))
DEF1(d_log2, log2(x))
DEF1(d_log10, log10(x))
DEF1(d_log1p, log1p(x))
// Trigonometric and hyperbolic functions.
DEF1(d_sin, sin(x))
DEF1(d_cos, cos(x))
DEF1(d_tan, tan(x))
DEF1(d_asin, asin(x))
DEF1(d_acos, acos(x))
DEF1(d_atan, atan(x))
DEF2(d_atan2, atan2(x, y))
DEF1(d_sinh, sinh(x))
DEF1(d_cosh, cosh(x))
DEF1(d_tanh, tanh(x))
DEF1(d_asinh, asinh(x))
DEF1(d_acosh, acosh(x))
DEF1(d_atanh, atanh(x))
DEF1(d_erf, erf(x))
DEF1(d_erfc, erfc(x))
// Sign, magnitude, min/max, fused multiply-add, remainder.
DEF1(d_fabs, fabs(x))
DEF2(d_copysign, copysign(x, y))
DEF2(d_fmin, fmin(x, y))
DEF2(d_fmax, fmax(x, y))
DEF2(d_fminimum, fminimum(x, y))
DEF2(d_fmaximum, fmaximum(x, y))
DEF3(d_fma, fma(x, y, z))
DEF3(d_fmuladd, x * y + z)   // contracted to llvm.fmuladd (-ffp-contract=on)
DEF2(d_fmod, fmod(x, y))
// Piecewise constant: multiplied by x so that the product rule shows a
// wrong nonzero derivative of the rounding function.
DEF1(d_floor, floor(x) * x)
DEF1(d_ceil, ceil(x) * x)
DEF1(d_trunc, trunc(x) * x)
DEF1(d_round, round(x) * x)
DEF1(d_roundeven, __builtin_roundeven(x) * x)
DEF1(d_rint, rint(x) * x)
DEF1(d_nearbyint, nearbyint(x) * x)
// Integer results, used as integers.
DEF1(d_lround, x * lround(2 * x) + (double)(lround(x) % 3))
DEF1(d_llround, x * (double)llround(x * x))
DEF1(d_lrint, x * x * (lrint(x) > 0 ? 2 : -1))
DEF1(d_llrint, (double)llrint(3 * x) / x)
// A composition, for the chain rule across several rules.
DEF2(d_chain, exp(sin(x) * y) / (1.0 + log1p(x * x)) + sqrt(hypot(x, y)))

int main(void) {
  CHECK1(d_sqrt, 0.3, 2.7);
  CHECK1(d_cbrt, 0.3, -2.7);
  CHECK2(d_pow, 0.7, 1.3, 2.5, -0.5, 1.5, 0.0);
  CHECK1(d_pow_int, -1.3, 0.6);
  CHECK1(d_pow_half, 0.4, 3.1);
  CHECK1(d_powi3, -1.3, 0.6);
  CHECK1(d_powi_neg, -1.3, 0.6);
  CHECK2(d_hypot, 0.7, -1.3, -3.0, 4.0);
  CHECK1(d_exp, -1.2, 0.8);
  CHECK1(d_exp2, -1.2, 0.8);
  CHECK1(d_expm1, -1.2, 0.8);
  CHECK1(d_log, 0.3, 2.5);
  CHECK1(d_log2, 0.3, 2.5);
  CHECK1(d_log10, 0.3, 2.5);
  CHECK1(d_log1p, -0.5, 2.0);
  CHECK1(d_sin, -1.1, 0.4, 2.0);
  CHECK1(d_cos, -1.1, 0.4, 2.0);
  CHECK1(d_tan, -1.1, 0.4, 2.0);
  CHECK1(d_asin, -0.6, 0.3);
  CHECK1(d_acos, -0.6, 0.3);
  CHECK1(d_atan, -2.0, 0.5);
  // All four quadrants (atan2(y=x, x=y) in the argument names of DEF2).
  CHECK2(d_atan2, 0.5, 1.2, 0.5, -1.2, -0.7, -0.3, -0.7, 0.3);
  CHECK1(d_sinh, -1.1, 0.4);
  CHECK1(d_cosh, -1.1, 0.4);
  CHECK1(d_tanh, -1.1, 0.4);
  CHECK1(d_asinh, -2.0, 0.5);
  CHECK1(d_acosh, 1.5, 3.0);
  CHECK1(d_atanh, -0.5, 0.3);
  CHECK1(d_erf, -0.8, 0.5);
  CHECK1(d_erfc, -0.8, 0.5);
  CHECK1(d_fabs, -1.3, 0.7);
  CHECK2(d_copysign, 1.3, 0.5, 1.3, -0.5, -1.3, 0.5, -1.3, -0.5);
  CHECK2(d_fmin, 0.3, 0.8, 0.8, 0.3);
  CHECK2(d_fmax, 0.3, 0.8, 0.8, 0.3);
  CHECK2(d_fminimum, 0.3, 0.8, 0.8, 0.3);
  CHECK2(d_fmaximum, 0.3, 0.8, 0.8, 0.3);
  CHECK3(d_fma, 0.7, -1.3, 2.1, -1.5, 0.4, 0.3);
  CHECK3(d_fmuladd, 0.7, -1.3, 2.1, -1.5, 0.4, 0.3);
  CHECK2(d_fmod, 5.3, 1.2, -5.3, 1.2, 5.3, -2.1, 0.7, 1.9);
  CHECK1(d_floor, 1.3, -2.7);
  CHECK1(d_ceil, 1.3, -2.7);
  CHECK1(d_trunc, 1.3, -2.7);
  CHECK1(d_round, 1.3, -2.7);
  CHECK1(d_roundeven, 1.3, -2.7);
  CHECK1(d_rint, 1.3, -2.7);
  CHECK1(d_nearbyint, 1.3, -2.7);
  CHECK1(d_lround, 1.3, -2.6);
  CHECK1(d_llround, 1.3, -2.7);
  CHECK1(d_lrint, 1.3, -2.7);
  CHECK1(d_llrint, 1.3, -2.7);
  CHECK2(d_chain, 0.7, 1.3, -1.2, 0.4);
  return gc_finish();
}
