// Checks gradients through loops that overwrite their input array in place:
// a recurrence x[i] = sin(x[i-1]) x[i], prefix sums, squaring each element,
// Givens rotations swept over a vector several times, an insertion sort and
// a bubble sort followed by weighted sums (data-dependent control flow; the
// inputs are distinct, so the sorts are locally smooth). The gradient is
// with respect to the initial values: on return the shadow holds
// d(result)/d(initial x). With a nonzero shadow on entry, the shadow seeds
// the final values (it holds d(result + seed . final x)/d(initial x)).
// References: long-double finite differences of the same C code run on a
// fresh copy of the initial values; closed forms for the sorts.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

double sinrec(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = sin(x[i - 1]) * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] / (i + 1);
  return r;
}
double prefix(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] += x[i - 1];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i] / (i + 1);
  return r;
}
double squares(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[(i + 1) % n] + x[i];
  return s;
}
/* reps sweeps of Givens rotations by theta over neighbouring pairs. */
double rotate(double *v, int n, double theta, int reps) {
  double c = cos(theta), s = sin(theta);
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i + 1 < n; ++i) {
      double a = v[i], b = v[i + 1];
      v[i] = c * a - s * b;
      v[i + 1] = s * a + c * b;
    }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += (i + 1) * v[i] * v[i];
  return e;
}
/* Insertion sort, then sum w[i] x[i]. */
double sort_dot(double *x, const double *w, int n) {
  for (int i = 1; i < n; ++i) {
    double key = x[i];
    int j = i - 1;
    while (j >= 0 && x[j] > key) {
      x[j + 1] = x[j];
      --j;
    }
    x[j + 1] = key;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i];
  return s;
}
/* Bubble sort with swaps, then sum x[i]^2 e^(-0.3 i). */
double bubble(double *x, int n) {
  for (int pass = 0; pass + 1 < n; ++pass)
    for (int i = 0; i + 1 < n - pass; ++i)
      if (x[i] > x[i + 1]) {
        double t = x[i];
        x[i] = x[i + 1];
        x[i + 1] = t;
      }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i] * exp(-0.3 * i);
  return r;
}

/* References: each runs the function on a fresh copy of the point v. */
static int N, Reps;
static const double *Seed; // seeds of the final values, or null
static const double W[16] = {1,  -2, 3,   0.5, 4,  -1, 2.5,  7,
                             -3, 6,  1.5, 2,   -5, 3,  0.25, 9};
typedef double (*inplace_fn)(double *, int);
static inplace_fn Fn; // the function of the current check, for references
/* The gradient of Fn: each request names its function. */
static void grad(double *x, double *dx, int n) {
  if (Fn == sinrec)
    __enzyme_autodiff((void *)sinrec, x, dx, n);
  else if (Fn == prefix)
    __enzyme_autodiff((void *)prefix, enzyme_dup, x, dx, enzyme_const, n);
  else if (Fn == squares)
    __enzyme_autodiff((void *)squares, x, dx, enzyme_const, n);
  else
    __enzyme_autodiff((void *)bubble, enzyme_dup, x, dx, n);
}
static long double inplace_at(const long double *v) {
  double x[16];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  long double r = Fn(x, N);
  for (int i = 0; Seed && i != N; ++i)
    r += (long double)Seed[i] * x[i];
  return r;
}
static long double rotate_at(const long double *v) {
  double x[16];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return rotate(x, N, v[N], Reps);
}
static long double sort_dot_at(const long double *v) {
  double x[16];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return sort_dot(x, W, N);
}

static void check(const char *name, gc_fn f, int n, const double *x,
                  const double *g) {
  long double lx[16], lg[16];
  for (int i = 0; i != n; ++i)
    lx[i] = x[i], lg[i] = g[i];
  gc_grad(name, f, n, lx, lg, GC_TOL_DOUBLE);
}
/* The rank of x[k] among the n distinct values x. */
static int rank(const double *x, int n, int k) {
  int r = 0;
  for (int i = 0; i != n; ++i)
    r += x[i] < x[k];
  return r;
}

int main(void) {
  const double X[16] = {0.9,  -1.3,  0.45, 2.1,  -0.7, 1.6, -2.4,  0.35,
                        1.05, -0.55, 0.8,  -1.9, 1.25, 0.6, -0.95, 1.4};
  const double S[16] = {0.5, -1,   2, 0.25,  1,   -0.5, 3,     1.5,
                        -2,  0.75, 1, -1.25, 0.5, 2,    -0.25, 1};
  const struct {
    const char *name;
    inplace_fn fn;
  } fns[] = {{"sinrec", sinrec},
             {"prefix", prefix},
             {"squares", squares},
             {"bubble", bubble}};
  const int ns[] = {1, 2, 7, 16};
  for (int f = 0; f != 4; ++f)
    for (int t = 0; t != 4; ++t)
      for (int seeded = 0; seeded != 2; ++seeded) {
        Fn = fns[f].fn, N = ns[t], Seed = seeded ? S : 0;
        double x[16], dx[16], want[16];
        for (int i = 0; i != 16; ++i)
          x[i] = want[i] = X[i], dx[i] = seeded ? S[i] : 0;
        grad(x, dx, N);
        check(fns[f].name, inplace_at, N, X, dx);
        Fn(want, N); // the primal effect: x holds the final values
        for (int i = 0; i != 16; ++i)
          gc_expect(fns[f].name, "final x", x[i], want[i], 1e-15L);
      }
  /* bubble, closed form: d/dx_k = 2 x_k e^(-0.3 rank(x_k)). */
  {
    double x[16], dx[16] = {0};
    for (int i = 0; i != 16; ++i)
      x[i] = X[i];
    __enzyme_autodiff((void *)bubble, x, dx, 16);
    for (int k = 0; k != 16; ++k)
      gc_expect("bubble", "2 x e^(-0.3 rank)", dx[k],
                2 * X[k] * expl(-0.3L * rank(X, 16, k)), GC_TOL_DOUBLE);
  }
  for (N = 1; N <= 15; N += 7)
    for (Reps = 0; Reps <= 5; Reps += 5) {
      double x[16], dx[16] = {0}, v[16];
      for (int i = 0; i != N; ++i)
        x[i] = v[i] = X[i];
      v[N] = 0.3;
      dx[N] = __enzyme_autodiff((void *)rotate, x, dx, N, enzyme_out, 0.3,
                                enzyme_const, Reps);
      check("rotate", rotate_at, N + 1, v, dx);
    }
  for (N = 0; N <= 16; N += 4) {
    double x[16], dx[16] = {0};
    for (int i = 0; i != 16; ++i)
      x[i] = X[i];
    __enzyme_autodiff((void *)sort_dot, enzyme_dup, x, dx, enzyme_const, W,
                      enzyme_const, N);
    check("sort_dot", sort_dot_at, N, X, dx);
    /* Closed form: x_k ends at position rank(x_k), so d/dx_k = w[rank]. */
    for (int k = 0; k != N; ++k)
      gc_expect("sort_dot", "w[rank(x_k)]", dx[k], W[rank(X, N, k)],
                GC_TOL_DOUBLE);
    for (int i = 0; i + 1 < N; ++i)
      gc_expect("sort_dot", "sorted", x[i] < x[i + 1], 1, 0);
  }
  return gc_finish();
}
