// Calls through C function pointers: the pair called dispatches on the
// pointer's value to the pair of each function of the module whose address
// is taken (or of the library function with a rule), in the reverse as in
// the forward pass. Covers a table of (function, weight) terms summed in a
// loop, a pointer chosen by a branch, a callback that writes through its
// output pointer, and recursion through a pointer. References: long-double
// finite differences of the same code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef double (*unary)(double);
double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }

typedef struct {
  unary f;
  double w;
} Term;
double apply_all(const Term *t, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i].w * t[i].f(x);
  return s;
}
static Term terms[3] = {{sq, 1.0}, {cube, 0.5}, {sin, 2.0}};
static long double apply_all_at(const long double *v) {
  Term t[3] = {{sq, v[0]}, {cube, v[1]}, {sin, v[2]}};
  return apply_all(t, 3, v[3]);
}

double pick(double x, int k) {
  unary f = k ? sq : exp;
  return f(x) * f(x + 1);
}
static long double pick1_at(const long double *v) { return pick(v[0], 1); }
static long double pick0_at(const long double *v) { return pick(v[0], 0); }

/* A callback writing its results through a pointer. */
typedef void (*stepper)(const double *in, double *out, double h);
void euler(const double *in, double *out, double h) {
  out[0] = in[0] + h * in[1];
  out[1] = in[1] - h * sin(in[0]);
}
void midpoint(const double *in, double *out, double h) {
  double mid[2];
  euler(in, mid, h / 2);
  out[0] = in[0] + h * mid[1];
  out[1] = in[1] - h * sin(mid[0]);
}
double integrate(stepper step, double *y, int n) {
  double tmp[2];
  for (int i = 0; i < n; ++i) {
    step(y, tmp, 0.1);
    y[0] = tmp[0];
    y[1] = tmp[1];
  }
  return y[0] * y[1];
}
static stepper chosen;
static long double integrate_at(const long double *v) {
  double y[2] = {v[0], v[1]};
  return integrate(chosen, y, 20);
}

/* Recursion through a pointer. */
typedef double (*recurse)(double, int);
double down(double x, int n);
static recurse next_step = down;
double down(double x, int n) { return n == 0 ? x : sin(next_step(x, n - 1)) + x; }
double through(double x) { return next_step(x, 6); }
static long double through_at(const long double *v) { return through(v[0]); }

int main(void) {
  {
    Term t[3], dt[3] = {{0}};
    for (int i = 0; i < 3; ++i)
      t[i] = terms[i];
    double x = 0.7;
    double dx = __enzyme_autodiff((void *)apply_all, enzyme_dup, t, dt,
                                  enzyme_const, 3, x);
    gc_grad("apply_all", apply_all_at, 4,
            (long double[]){t[0].w, t[1].w, t[2].w, x},
            (long double[]){dt[0].w, dt[1].w, dt[2].w, dx}, GC_TOL_DOUBLE);
  }
  {
    double x = 0.3;
    double g1 = __enzyme_autodiff((void *)pick, x, enzyme_const, 1);
    gc_grad("pick(sq)", pick1_at, 1, (long double[]){x}, (long double[]){g1},
            GC_TOL_DOUBLE);
    double g0 = __enzyme_autodiff((void *)pick, x, enzyme_const, 0);
    gc_grad("pick(exp)", pick0_at, 1, (long double[]){x},
            (long double[]){g0}, GC_TOL_DOUBLE);
  }
  {
    stepper steppers[2] = {euler, midpoint};
    for (int k = 0; k < 2; ++k) {
      double y[2] = {0.4, -0.2}, dy[2] = {0, 0};
      chosen = steppers[k];
      __enzyme_autodiff((void *)integrate, enzyme_const, steppers[k],
                        enzyme_dup, y, dy, enzyme_const, 20);
      gc_grad(k ? "integrate(midpoint)" : "integrate(euler)", integrate_at, 2,
              (long double[]){0.4, -0.2}, (long double[]){dy[0], dy[1]},
              GC_TOL_DOUBLE);
    }
  }
  {
    double x = 0.9;
    double g = __enzyme_autodiff((void *)through, x);
    gc_grad("through", through_at, 1, (long double[]){x}, (long double[]){g},
            GC_TOL_DOUBLE);
  }
  return gc_finish();
}
