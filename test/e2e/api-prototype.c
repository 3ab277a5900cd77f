// Checks __enzyme_autodiff declared with fixed prototypes, as in Enzyme's
// examples: arguments are converted to the prototype's types (no variadic
// promotion), then to the parameter types of the function.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
#include "gradcheck.h"

extern int enzyme_const;
typedef struct { double dx, dy; } D2;

double __enzyme_autodiff(void *, double);
// Any name with the __enzyme_autodiff prefix is the API, as in Enzyme.
D2 __enzyme_autodiff2(void *, double, int, int, double);
float __enzyme_autodiff_float(void *, float, int, float);

double square(double x) { return x * x * sin(x); }
static long double square_at(const long double *v) { return square(v[0]); }

double weighted(double x, int n, double y) { return n * x * y + y / x; }

// A float function reached through a double prototype: the value is
// narrowed to float, the float gradient widened back.
float halve(float x) { return x * x / 2; }

float prod(float x, float y) { return x * y * y; }

int main(void) {
  const double xs[] = {0.7, -1.8};
  for (int i = 0; i != 2; ++i) {
    double x = xs[i];
    long double p = x;
    gc_grad("fixed prototype", square_at, 1, &p,
            (long double[]){__enzyme_autodiff((void *)square, x)},
            GC_TOL_DOUBLE);

    // The marker is an int in the prototype.
    D2 g = __enzyme_autodiff2((void *)weighted, x, enzyme_const, 3, 2.5);
    gc_expect("int marker in prototype", "dx", g.dx, 3 * 2.5L - 2.5L / (p * p),
              GC_TOL_DOUBLE);
    gc_expect("int marker in prototype", "dy", g.dy, 3 * p + 1 / p,
              GC_TOL_DOUBLE);

    long double fx = (float)x;
    gc_expect("float through double prototype", "dx",
              __enzyme_autodiff((void *)halve, x), fx, GC_TOL_FLOAT);
    // A float prototype: no promotion, and a float result.
    gc_expect("float prototype", "dx",
              __enzyme_autodiff_float((void *)prod, (float)x, enzyme_const, 0.5f),
              0.25L, GC_TOL_FLOAT);
  }
  return gc_finish();
}
