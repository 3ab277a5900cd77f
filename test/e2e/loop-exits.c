// Checks gradients through loops with several or data-dependent exits:
// `break` at the first element above a threshold, `return` inside a loop,
// `goto` out of a nested loop, `continue`, while loops whose trip count
// depends on the data (Newton iterations for sqrt(a) and for w e^w = a,
// with the gradient checked against the implicit-function derivative too)
// and a do-while loop. Every point is chosen away from the values where an
// exit changes, so that the functions are smooth there.
// References: long-double finite differences of the same C code, and
// closed forms for the Newton iterations.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double dx, dy;
} D2;
D2 __enzyme_autodiff_d2(void *, ...); // an entry point too: two gradients

/* break: sums squares up to the first element above t. */
double first_above(const double *x, int n, double t) {
  double s = 0;
  int i;
  for (i = 0; i < n; ++i) {
    if (x[i] > t)
      break;
    s += x[i] * x[i];
  }
  return i < n ? s * x[i] : s + 1.0;
}
/* return inside the loop, once the accumulator grows past a limit. */
double until_large(const double *x, int n, double limit) {
  double acc = 1;
  for (int i = 0; i < n; ++i) {
    acc = acc * x[i] + sin(x[i]);
    if (fabs(acc) > limit)
      return acc * x[0];
  }
  return -acc;
}
/* goto out of two loops. */
double search(const double *A, int n, double lim) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      s += A[i * n + j] * A[j * n + i];
      if (s > lim)
        goto found;
    }
  return -s;
found:
  return s * A[0];
}
/* continue: negative elements are skipped. */
double skip_negative(const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0)
      continue;
    s += sqrt(x[i]) * p;
    p *= 0.9 + 0.1 * x[i];
  }
  return s;
}
/* while (err > tol): Newton's iteration for sqrt(a), a > 0. */
double newton_sqrt(double a) {
  double x = a > 1 ? a : 1, err = 1;
  int it = 0;
  while (err > 1e-12 && it < 100) {
    double next = 0.5 * (x + a / x);
    err = fabs(next - x) / next;
    x = next;
    ++it;
  }
  return x;
}
/* for (;;) with a break: Newton's iteration for w e^w = a (Lambert's W),
   a > 0. The result times b, so that a second input is active too. */
double lambert(double a, double b) {
  double w = log1p(a);
  for (;;) {
    double e = exp(w), step = (w * e - a) / (e * (w + 1));
    w -= step;
    if (fabs(step) <= 1e-12 * (1 + fabs(w)))
      break;
  }
  return w * b;
}
/* do-while: at least one step, then until x <= 1. */
double halve(double x, double y) {
  int k = 0;
  do {
    x = 0.5 * x + 0.1 * sin(y * x);
    ++k;
  } while (x > 1.0);
  return x * k + y * x;
}

static int N;
static double P; // the enzyme_const double argument of the current check
static double *to_double(double *d, const long double *v, int k) {
  for (int i = 0; i != k; ++i)
    d[i] = v[i];
  return d;
}
static long double first_above_at(const long double *v) {
  double x[16];
  return first_above(to_double(x, v, N), N, P);
}
static long double until_large_at(const long double *v) {
  double x[16];
  return until_large(to_double(x, v, N), N, P);
}
static long double search_at(const long double *v) {
  double A[16];
  return search(to_double(A, v, N * N), N, P);
}
static long double skip_negative_at(const long double *v) {
  double x[16];
  return skip_negative(to_double(x, v, N), N);
}
static long double newton_sqrt_at(const long double *v) {
  return newton_sqrt(v[0]);
}
static long double lambert_at(const long double *v) {
  return lambert(v[0], v[1]);
}
static long double halve_at(const long double *v) { return halve(v[0], v[1]); }

static void check(const char *name, gc_fn f, int n, const double *x,
                  const double *g) {
  long double lx[16], lg[16];
  for (int i = 0; i != n; ++i)
    lx[i] = x[i], lg[i] = g[i];
  gc_grad(name, f, n, lx, lg, GC_TOL_DOUBLE);
}
static void zero(double *d) {
  for (int i = 0; i != 16; ++i)
    d[i] = 0;
}

int main(void) {
  const double X[16] = {0.9,  -1.3,  0.45, 2.1,  -0.7, 1.6, -2.4,  0.35,
                        1.05, -0.55, 0.8,  -1.9, 1.25, 0.6, -0.95, 1.4};
  double d[16];
  /* Exits at i = 0, at i = 3, never (n = 16), never (n = 3). */
  const double ts[][2] = {{0.5, 16}, {1.0, 16}, {3.0, 16}, {1.0, 3}};
  for (int t = 0; t != 4; ++t) {
    zero(d);
    P = ts[t][0], N = (int)ts[t][1];
    __enzyme_autodiff((void *)first_above, enzyme_dup, X, d, enzyme_const, N,
                      enzyme_const, P);
    check("first_above", first_above_at, N, X, d);
  }
  /* |acc| after each step (x = X): 1.68, 3.15, 0.98, 1.2, 0.20, 1.31, 3.83,
     then below 3.1: returns at i = 0, 1, 6, or at the end. */
  N = 16;
  const double limits[] = {0.5, 2.5, 3.5, 5.0};
  for (int t = 0; t != 4; ++t) {
    zero(d);
    P = limits[t];
    __enzyme_autodiff((void *)until_large, X, d, N, enzyme_const, P);
    check("until_large", until_large_at, N, X, d);
  }
  /* Partial sums of A[i][j] A[j][i] in loop order, for A = X: 0.81, 1.72,
     2.19, 4.82, 5.73, 8.29, ... ending at 20.66: leaves at the 1st, 3rd
     and 6th term, or returns at the end. */
  const double lims[] = {0.5, 2.0, 7.0, 100.0};
  N = 4;
  for (int t = 0; t != 4; ++t) {
    zero(d);
    P = lims[t];
    __enzyme_autodiff((void *)search, X, d, N, enzyme_const, P);
    check("search", search_at, 16, X, d);
  }
  for (N = 0; N <= 16; N += 5) {
    zero(d);
    __enzyme_autodiff((void *)skip_negative, X, d, N);
    check("skip_negative", skip_negative_at, N, X, d);
  }
  const double as[] = {0.3, 0.7, 2.0, 9.0, 1234.5};
  for (int t = 0; t != 5; ++t) {
    double a = as[t];
    double da = __enzyme_autodiff((void *)newton_sqrt, a);
    gc_grad("newton_sqrt", newton_sqrt_at, 1, (long double[]){a},
            (long double[]){da}, GC_TOL_DOUBLE);
    gc_expect("newton_sqrt", "1 / (2 sqrt(a))", da, 0.5L / sqrtl(a),
              GC_TOL_DOUBLE);
    double w = lambert(a, 1.0);
    D2 g = __enzyme_autodiff_d2((void *)lambert, a, 1.5);
    gc_grad("lambert", lambert_at, 2, (long double[]){a, 1.5},
            (long double[]){g.dx, g.dy}, GC_TOL_DOUBLE);
    /* Implicit function: w e^w = a gives dw/da = 1 / (e^w (1 + w)). */
    gc_expect("lambert", "1.5 / (e^w (1 + w))", g.dx,
              1.5L / (expl(w) * (1 + w)), GC_TOL_DOUBLE);
    gc_expect("lambert", "w", g.dy, w, GC_TOL_DOUBLE);
  }
  /* One, two, three and five trips. */
  const double hs[][2] = {{1.3, 0.4}, {3.1, -0.8}, {5.6, 0.3}, {24.0, 0.9}};
  for (int t = 0; t != 4; ++t) {
    D2 g = __enzyme_autodiff_d2((void *)halve, hs[t][0], hs[t][1]);
    check("halve", halve_at, 2, hs[t], (double[]){g.dx, g.dy});
  }
  return gc_finish();
}
