// Checks gradients through single loops: a constant trip count too long to
// be unrolled completely, symbolic trip counts (int n, enzyme_const or by
// default), reductions (sum of squares, dot product, product), Horner's rule
// over the coefficients, a loop-invariant enzyme_out scalar used in every
// iteration, loops with n = 0 and n = 1, loops counting down, with stride 2,
// and over floats. Shadows start at 0.25 to check that gradients accumulate
// and that elements the loop does not read keep their shadow.
// References: long-double finite differences of the same C code (floats:
// the same body instantiated in long double).
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double dx, dy;
} D2;
D2 __enzyme_autodiff_d2(void *, ...); // an entry point too: two gradients

/* A constant trip count: a scalar recurrence carried by a phi. */
double iterate(double x, double y) {
  for (int i = 0; i < 100; ++i)
    x = x + 0.01 * sin(x * y) - 0.005 * x;
  return x * y;
}
double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
/* p(x) = sum c[i] x^i, by Horner's rule from the last coefficient down. */
double horner(const double *c, int n, double x) {
  double p = 0;
  for (int i = n - 1; i >= 0; --i)
    p = p * x + c[i];
  return p;
}
double prod(const double *x, long n) {
  double p = 1;
  for (long i = 0; i < n; ++i)
    p *= x[i];
  return p;
}
/* A one-neuron least-squares loss: the weight a is used in every iteration. */
double loss(double a, const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = tanh(a * x[i]) - y[i];
    s += r * r;
  }
  return 0.5 * s;
}
/* Counting down with an unsigned index: the order of the terms matters. */
double countdown(const double *x, unsigned n) {
  double r = 0;
  for (unsigned i = n; i-- > 0;)
    r = 0.5 * cos(r) + 0.5 * x[i] * r + x[i];
  return r;
}
/* Stride 2: with n odd, the last element is not read. */
double stride2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i += 2)
    s += x[i] * sin(x[i + 1]);
  return s;
}
/* A weighted norm over floats. */
#define WNORM_BODY(T, S)                                                       \
  T s = 0;                                                                     \
  for (int i = 0; i < n; ++i)                                                  \
    s += (T)(i + 1) * x[i] * x[i];                                             \
  return sqrt##S(s) + x[0] * s;
float wnorm(const float *x, int n) { WNORM_BODY(float, f) }
static long double wnorm_l(const long double *x, int n) {
  WNORM_BODY(long double, l)
}

/* References: v holds the active inputs, arrays concatenated. */
static int N; // the trip count of the current check
static double *to_double(double *d, const long double *v, int k) {
  for (int i = 0; i != k; ++i)
    d[i] = v[i];
  return d;
}
static long double iterate_at(const long double *v) {
  return iterate(v[0], v[1]);
}
static long double sumsq_at(const long double *v) {
  double x[16];
  return sumsq(to_double(x, v, N), N);
}
static long double dot_at(const long double *v) {
  double a[16], b[16];
  return dot(to_double(a, v, N), to_double(b, v + N, N), N);
}
static long double horner_at(const long double *v) {
  double c[16];
  return horner(to_double(c, v, N), N, v[N]);
}
static long double prod_at(const long double *v) {
  double x[16];
  return prod(to_double(x, v, N), N);
}
static const double Y[8] = {0.3, -0.2, 0.5, 0.1, -0.6, 0.4, 0.7, -0.1};
static long double loss_at(const long double *v) {
  double x[16];
  return loss(v[0], to_double(x, v + 1, N), Y, N);
}
static long double countdown_at(const long double *v) {
  double x[16];
  return countdown(to_double(x, v, N), N);
}
static long double stride2_at(const long double *v) {
  double x[16];
  return stride2(to_double(x, v, N), N);
}
static long double wnorm_at(const long double *v) { return wnorm_l(v, N); }

/* Checks the gradient accumulated into the shadow dx (which held `start`
   before the call) for the k inputs x, and that the shadow of the m - k
   elements after them still holds `start`. */
static void check(const char *name, gc_fn f, const double *x, const double *dx,
                  int k, int m, double start) {
  long double v[16], g[16];
  for (int i = 0; i != k; ++i)
    v[i] = x[i], g[i] = dx[i] - start;
  gc_grad(name, f, k, v, g, GC_TOL_DOUBLE);
  for (int i = k; i < m; ++i)
    gc_expect(name, "shadow of an element not read", dx[i], start, 0);
}
static void fill(double *d, int m, double value) {
  for (int i = 0; i != m; ++i)
    d[i] = value;
}

int main(void) {
  const double X[16] = {0.9,  -1.3,  0.45, 2.1,  -0.7, 1.6, -2.4,  0.35,
                        1.05, -0.55, 0.8,  -1.9, 1.25, 0.6, -0.95, 1.4};
  const double pts[][2] = {{0.3, 1.2}, {-0.8, 2.5}, {1.7, -0.6}};
  for (int i = 0; i != 3; ++i) {
    D2 g = __enzyme_autodiff_d2((void *)iterate, pts[i][0], pts[i][1]);
    gc_grad("iterate", iterate_at, 2, (long double[]){pts[i][0], pts[i][1]},
            (long double[]){g.dx, g.dy}, GC_TOL_DOUBLE);
  }
  double dx[16];
  const int ns[] = {0, 1, 5, 16};
  for (int t = 0; t != 4; ++t) {
    N = ns[t];
    fill(dx, 16, 0.25);
    __enzyme_autodiff((void *)sumsq, enzyme_dup, X, dx, enzyme_const, N);
    check("sumsq", sumsq_at, X, dx, N, 16, 0.25);
    fill(dx, 16, 0.25);
    __enzyme_autodiff((void *)prod, X, dx, (long)N);
    check("prod", prod_at, X, dx, N, 16, 0.25);
    fill(dx, 16, 0.25);
    __enzyme_autodiff((void *)countdown, X, dx, enzyme_const, (unsigned)N);
    check("countdown", countdown_at, X, dx, N, 16, 0.25);
  }
  const int half[] = {0, 1, 3, 8}; // a and b: 2 n <= 16 inputs
  for (int t = 0; t != 4; ++t) {
    N = half[t];
    /* a = X[0..n), b = X[n..2n); their shadows are the same parts of dx. */
    fill(dx, 16, 0.25);
    __enzyme_autodiff((void *)dot, X, dx, X + N, dx + N, N);
    check("dot", dot_at, X, dx, 2 * N, 16, 0.25);
  }
  const int deg[] = {0, 1, 2, 9};
  for (int t = 0; t != 4; ++t) {
    N = deg[t];
    double x = t == 3 ? -0.7 : 1.3, v[16];
    fill(dx, 16, 0.25);
    v[N] = x;
    dx[N] = 0.25 + __enzyme_autodiff((void *)horner, X, dx, N, enzyme_out, x);
    for (int i = 0; i != N; ++i)
      v[i] = X[i];
    check("horner", horner_at, v, dx, N + 1, 16, 0.25);
  }
  const int lens[] = {0, 1, 8};
  for (int t = 0; t != 3; ++t) {
    N = lens[t];
    double v[9] = {0.8};
    fill(dx, 16, 0.25);
    dx[0] = 0.25 + __enzyme_autodiff((void *)loss, enzyme_out, 0.8, X + 3,
                                     dx + 1, enzyme_const, Y, N);
    for (int i = 0; i != N; ++i)
      v[i + 1] = X[3 + i];
    check("loss", loss_at, v, dx, N + 1, 16, 0.25);
  }
  const int odd[] = {1, 2, 9, 16};
  for (int t = 0; t != 4; ++t) {
    N = odd[t];
    fill(dx, 16, 0.25);
    __enzyme_autodiff((void *)stride2, X, dx, N);
    check("stride2", stride2_at, X, dx, N, 16, 0.25);
    if (N & 1)
      gc_expect("stride2", "last element", dx[N - 1], 0.25, 0);
  }
  for (N = 1; N <= 13; N += 6) {
    float xf[13], dxf[13] = {0};
    long double v[13], g[13];
    for (int i = 0; i != N; ++i)
      xf[i] = (float)X[i], v[i] = xf[i];
    __enzyme_autodiff((void *)wnorm, xf, dxf, N);
    for (int i = 0; i != N; ++i)
      g[i] = dxf[i];
    gc_grad("wnorm", wnorm_at, N, v, g, GC_TOL_FLOAT);
  }
  return gc_finish();
}
