// Custom gradients registered with __enzyme_register_gradient_NAME replace
// the derivative of the function's body wherever it is called: three call
// levels below the differentiated function, inside a loop, on a function
// whose body AD never sees (the libm Bessel function j0 has no rule), in
// Enzyme's variants (a tape, no tape with the result returned, a void
// augmented forward), and when the differentiated function itself is the
// one with the custom gradient. Each reverse counts its calls, so the tests
// fail if the body were differentiated instead; the gradients are checked
// against long-double finite differences of the same C code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

static int reverse_calls;

/* dest = src^2 through pointers; the tape carries src's value, because the
   caller may overwrite *src before the reverse runs. */
void square_(const double *src, double *dest) { *dest = *src * *src; }
void *square_aug(const double *src, const double *d_src, double *dest,
                 double *d_dest) {
  double *tape = malloc(sizeof(double));
  *tape = *src;
  *dest = *src * *src;
  return tape;
}
void square_rev(const double *src, double *d_src, const double *dest,
                double *d_dest, void *tape) {
  ++reverse_calls;
  *d_src += *d_dest * 2 * *(double *)tape;
  *d_dest = 0;
  free(tape);
}
void *__enzyme_register_gradient_square[] = {
    (void *)square_, (void *)square_aug, (void *)square_rev};

double level3(double x) {
  double y;
  square_(&x, &y);
  x = 0; /* Overwrites what square_ read: its reverse must use the tape. */
  return y + x;
}
double level2(double x) { return sin(level3(x)); }
double level1(double x) { return level2(x) * x; }
static long double level1_at(const long double *v) { return level1(v[0]); }

/* Enzyme's rsqrt style: the augmented forward returns the result, no tape. */
double rsq(double x) { return 1 / sqrt(x); }
double rsq_aug(double x) { return rsq(x); }
double rsq_rev(double x, double dret) {
  ++reverse_calls;
  return -0.5 * dret / (x * sqrt(x));
}
void *__enzyme_register_gradient_rsq[3] = {(void *)rsq, (void *)rsq_aug,
                                           (void *)rsq_rev};
double norm_inv(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += rsq(v[i] * v[i] + 1) * v[(i + 1) % n];
  return s;
}
static long double norm_inv_at(const long double *v) {
  double x[4] = {v[0], v[1], v[2], v[3]};
  return norm_inv(x, 4);
}

/* A function without a body here: Bessel's j0, whose derivative is -j1. A
   void augmented forward: the result comes from j0 itself. */
void j0_aug(double x) {}
double j0_rev(double x, double dret) {
  ++reverse_calls;
  return -dret * j1(x);
}
void *__enzyme_register_gradient_j0[3] = {(void *)j0, (void *)j0_aug,
                                          (void *)j0_rev};
double bessel(double x) { return j0(2 * x) * x; }
static long double bessel_at(const long double *v) { return bessel(v[0]); }

int main(void) {
  {
    double x = 0.7;
    int before = reverse_calls;
    double g = __enzyme_autodiff((void *)level1, x);
    gc_grad("level1", level1_at, 1, (long double[]){x}, (long double[]){g},
            GC_TOL_DOUBLE);
    gc_expect("level1", "reverse calls", reverse_calls - before, 1, 0);
  }
  {
    double v[4] = {0.5, -1.2, 2.0, 0.3}, dv[4] = {0};
    int before = reverse_calls;
    __enzyme_autodiff((void *)norm_inv, enzyme_dup, v, dv, enzyme_const, 4);
    gc_grad("norm_inv", norm_inv_at, 4, (long double[]){v[0], v[1], v[2], v[3]},
            (long double[]){dv[0], dv[1], dv[2], dv[3]}, GC_TOL_DOUBLE);
    gc_expect("norm_inv", "reverse calls", reverse_calls - before, 4, 0);
  }
  {
    double x = 1.3;
    int before = reverse_calls;
    double g = __enzyme_autodiff((void *)bessel, x);
    gc_grad("bessel", bessel_at, 1, (long double[]){x}, (long double[]){g},
            GC_TOL_DOUBLE);
    gc_expect("bessel", "reverse calls", reverse_calls - before, 1, 0);
  }
  {
    /* The differentiated function itself has the custom gradient. */
    double x = 2.5;
    int before = reverse_calls;
    double g = __enzyme_autodiff((void *)rsq, x);
    gc_expect("rsq", "d/dx", g, -0.5 / (x * sqrt(x)), GC_TOL_DOUBLE);
    gc_expect("rsq", "reverse calls", reverse_calls - before, 1, 0);
  }
  return gc_finish();
}
