// Checks the float (sinf...) and long double (sinl...) variants of a
// representative subset of the math functions, as libm calls and as
// intrinsics.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

double __enzyme_autodiff(void *, ...);
typedef struct { float dx, dy; } F2;
typedef struct { long double dx, dy; } L2;
#define autodiff_f ((float (*)(void *, ...))__enzyme_autodiff)
#define autodiff_l ((long double (*)(void *, ...))__enzyme_autodiff)
#define autodiff_l2 ((L2(*)(void *, ...))__enzyme_autodiff)
// Its own declaration rather than a cast of the double one: instcombine
// would turn a cast call returning <2 x float> back into a double call.
F2 __enzyme_autodiff_f2(void *, ...);

// DEFn(name, float expr, long double expr) defines f_name in float and
// l_name in long double; the long double one is also the reference for the
// float one, so finite differences are not limited by float rounding.
#define DEF1(name, fexpr, lexpr)                                               \
  float f_##name(float x) { return fexpr; }                                    \
  long double l_##name(long double x) { return lexpr; }                        \
  static long double name##_at(const long double *v) { return l_##name(v[0]); }
#define DEF2(name, fexpr, lexpr)                                               \
  float f_##name(float x, float y) { return fexpr; }                           \
  long double l_##name(long double x, long double y) { return lexpr; }         \
  static long double name##_at(const long double *v) {                         \
    return l_##name(v[0], v[1]);                                               \
  }

// Checks both variants of name at each point, given as floats so that the
// float and long double functions see the same value.
#define CHECK1(name, ...)                                                      \
  do {                                                                         \
    const float p_[] = {__VA_ARGS__};                                          \
    for (unsigned i_ = 0; i_ != sizeof p_ / sizeof *p_; ++i_) {                \
      long double x_ = p_[i_];                                                 \
      gc_grad("f_" #name, name##_at, 1, &x_,                                   \
              (long double[]){autodiff_f((void *)f_##name, p_[i_])},           \
              GC_TOL_FLOAT);                                                   \
      gc_grad("l_" #name, name##_at, 1, &x_,                                   \
              (long double[]){autodiff_l((void *)l_##name, x_)},               \
              GC_TOL_LDOUBLE);                                                 \
    }                                                                          \
  } while (0)
#define CHECK2(name, ...)                                                      \
  do {                                                                         \
    const float p_[] = {__VA_ARGS__};                                          \
    for (unsigned i_ = 0; i_ != sizeof p_ / sizeof *p_; i_ += 2) {             \
      long double x_[] = {p_[i_], p_[i_ + 1]};                                 \
      F2 f_ = __enzyme_autodiff_f2((void *)f_##name, p_[i_], p_[i_ + 1]);      \
      gc_grad("f_" #name, name##_at, 2, x_, (long double[]){f_.dx, f_.dy},     \
              GC_TOL_FLOAT);                                                   \
      L2 l_ = autodiff_l2((void *)l_##name, x_[0], x_[1]);                     \
      gc_grad("l_" #name, name##_at, 2, x_, (long double[]){l_.dx, l_.dy},     \
              GC_TOL_LDOUBLE);                                                 \
    }                                                                          \
  } while (0)

DEF1(sqrt, sqrtf(x), sqrtl(x))
DEF1(cbrt, cbrtf(x), cbrtl(x))
DEF2(pow, powf(x, y), powl(x, y))
DEF2(hypot, hypotf(x, y), hypotl(x, y))
DEF1(exp, expf(x), expl(x))
DEF1(expm1, expm1f(x), expm1l(x))
DEF1(log, logf(x), logl(x))
DEF1(log1p, log1pf(x), log1pl(x))
DEF1(sin, sinf(x), sinl(x))
DEF1(cos, cosf(x), cosl(x))
DEF1(tan, tanf(x), tanl(x))
DEF1(asin, asinf(x), asinl(x))
DEF2(atan2, atan2f(x, y), atan2l(x, y))
DEF1(tanh, tanhf(x), tanhl(x))
DEF1(acosh, acoshf(x), acoshl(x))
// erff ends in 'f' like every float variant, but erf itself does too.
DEF1(erf, erff(x), erfl(x))
DEF1(erfc, erfcf(x), erfcl(x))
DEF1(fabs, fabsf(x), fabsl(x))
DEF2(copysign, copysignf(x, y), copysignl(x, y))
DEF2(fmin, fminf(x, y), fminl(x, y))
DEF2(fmax, fmaxf(x, y), fmaxl(x, y))
DEF2(fma, fmaf(x, y, x), fmal(x, y, x))
DEF2(fmod, fmodf(x, y), fmodl(x, y))
DEF1(floor, floorf(x) * x, floorl(x) * x)
DEF1(round, roundf(x) * x, roundl(x) * x)
DEF1(lround, x * lroundf(2 * x), x * lroundl(2 * x))
DEF1(llrint, x * llrintf(x), x * llrintl(x))
// Several functions chained, each in its own precision.
DEF2(chain, expf(sinf(x) * y) / (1 + log1pf(x * x)) + sqrtf(hypotf(x, y)),
     expl(sinl(x) * y) / (1 + log1pl(x * x)) + sqrtl(hypotl(x, y)))

int main(void) {
  CHECK1(sqrt, 0.3f, 2.7f);
  CHECK1(cbrt, 0.3f, -2.7f);
  CHECK2(pow, 0.7f, 1.3f, 2.5f, -0.5f);
  CHECK2(hypot, 0.7f, -1.3f, -3.0f, 4.0f);
  CHECK1(exp, -1.2f, 0.8f);
  CHECK1(expm1, -1.2f, 0.8f);
  CHECK1(log, 0.3f, 2.5f);
  CHECK1(log1p, -0.5f, 2.0f);
  CHECK1(sin, -1.1f, 0.4f);
  CHECK1(cos, -1.1f, 0.4f);
  CHECK1(tan, -1.1f, 0.4f);
  CHECK1(asin, -0.6f, 0.3f);
  CHECK2(atan2, 0.5f, 1.2f, -0.7f, -0.3f);
  CHECK1(tanh, -1.1f, 0.4f);
  CHECK1(acosh, 1.5f, 3.0f);
  CHECK1(erf, -0.8f, 0.5f);
  CHECK1(erfc, -0.8f, 0.5f);
  CHECK1(fabs, -1.3f, 0.7f);
  CHECK2(copysign, 1.3f, -0.5f, -1.3f, -0.5f);
  CHECK2(fmin, 0.3f, 0.8f, 0.8f, 0.3f);
  CHECK2(fmax, 0.3f, 0.8f, 0.8f, 0.3f);
  CHECK2(fma, 0.7f, -1.3f, -1.5f, 0.4f);
  CHECK2(fmod, 5.3f, 1.2f, -5.3f, -2.1f);
  CHECK1(floor, 1.3f, -2.7f);
  CHECK1(round, 1.3f, -2.7f);
  CHECK1(lround, 1.3f, -2.6f);
  CHECK1(llrint, 1.3f, -2.7f);
  CHECK2(chain, 0.7f, 1.3f, -1.2f, 0.4f);
  return gc_finish();
}
