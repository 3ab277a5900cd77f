// Checks gradients through nested loops with symbolic bounds: a 2-deep
// matrix-vector product, a 3-deep matrix product C = A B followed by the
// sum of C^2 (3x3 times 3x3 and 2x4 times 4x2), triangular loops (j < i in
// a forward substitution, j <= i in a pair sum), a 1D stencil applied T
// times that swaps two buffers malloc'd (and freed) inside the function,
// and a 2D stencil on a 4x4 grid updated in place (the gradient is with
// respect to the grid's initial values).
// References: long-double finite differences of the same C code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

/* sum_i w_i tanh((A x)_i), A m x n row-major. */
double matvec(const double *A, const double *x, int m, int n) {
  double s = 0;
  for (int i = 0; i < m; ++i) {
    double y = 0;
    for (int j = 0; j < n; ++j)
      y += A[i * n + j] * x[j];
    s += (i + 1) * tanh(y);
  }
  return s;
}
/* sum of the squares of C = A B, A m x k, B k x n. */
double matmul_sq(const double *A, const double *B, int m, int k, int n) {
  double s = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double c = 0;
      for (int p = 0; p < k; ++p)
        c += A[i * k + p] * B[p * n + j];
      s += c * c;
    }
  return s;
}
/* Solves L y = b by forward substitution (L n x n, lower triangle used)
   and returns sum_i y_i^2 / (i + 1). */
double trisolve(const double *L, const double *b, int n) {
  double y[8], s = 0;
  for (int i = 0; i < n; ++i) {
    double t = b[i];
    for (int j = 0; j < i; ++j)
      t -= L[i * n + j] * y[j];
    y[i] = t / L[i * n + i];
    s += y[i] * y[i] / (i + 1);
  }
  return s;
}
/* A triangular loop j <= i. */
double pairs(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      s += sin(x[i] - x[j] + 0.5) * x[j];
  return s;
}
/* T steps of a nonlinear heat equation on n points with fixed ends; two
   heap buffers whose pointers are swapped after each step. */
double heat(const double *u0, int n, int T, double k) {
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = u0[i];
  for (int t = 0; t < T; ++t) {
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    for (int i = 1; i < n - 1; ++i)
      b[i] = a[i] + k * (a[i - 1] - 2 * a[i] + a[i + 1]) - 0.05 * a[i] * a[i];
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * a[i] * a[i];
  free(a);
  free(b);
  return r;
}
/* T Jacobi-like sweeps of a periodic 4x4 grid u, updated in place through
   a local array; returns a weighted sum of the final grid. */
double grid(double *u, int T) {
  double t[4][4];
  for (int s = 0; s < T; ++s) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        t[i][j] = 0.5 * u[i * 4 + j] +
                  0.125 * (u[((i + 1) % 4) * 4 + j] + u[((i + 3) % 4) * 4 + j] +
                           u[i * 4 + (j + 1) % 4] + u[i * 4 + (j + 3) % 4]) +
                  0.1 * sin(u[i * 4 + j]);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        u[i * 4 + j] = t[i][j];
  }
  double r = 0;
  for (int i = 0; i < 16; ++i)
    r += (i % 5 + 1) * u[i] * u[i];
  return r;
}

/* References: v holds the active inputs, arrays concatenated. */
static int M, K, N, T;
static double Fixed[16]; // an operand held constant
static long double matvec_at(const long double *v) {
  double A[16], x[16];
  for (int i = 0; i != M * N; ++i)
    A[i] = v[i];
  for (int j = 0; j != N; ++j)
    x[j] = v[M * N + j];
  return matvec(A, x, M, N);
}
static long double matmul_A_at(const long double *v) { // B is Fixed
  double A[16];
  for (int i = 0; i != M * K; ++i)
    A[i] = v[i];
  return matmul_sq(A, Fixed, M, K, N);
}
static long double matmul_B_at(const long double *v) { // A is Fixed
  double B[16];
  for (int i = 0; i != K * N; ++i)
    B[i] = v[i];
  return matmul_sq(Fixed, B, M, K, N);
}
static long double trisolve_at(const long double *v) {
  double L[9], b[3];
  for (int i = 0; i != 9; ++i)
    L[i] = v[i];
  for (int i = 0; i != 3; ++i)
    b[i] = v[9 + i];
  return trisolve(L, b, 3);
}
static long double pairs_at(const long double *v) {
  double x[16];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return pairs(x, N);
}
static long double heat_at(const long double *v) {
  double u[16];
  for (int i = 0; i != N; ++i)
    u[i] = v[i];
  return heat(u, N, T, v[N]);
}
static long double grid_at(const long double *v) {
  double u[16]; // a fresh copy of the initial grid: grid overwrites it
  for (int i = 0; i != 16; ++i)
    u[i] = v[i];
  return grid(u, T);
}

static void check(const char *name, gc_fn f, int n, const double *x,
                  const double *g) {
  long double lx[16], lg[16];
  for (int i = 0; i != n; ++i)
    lx[i] = x[i], lg[i] = g[i];
  gc_grad(name, f, n, lx, lg, GC_TOL_DOUBLE);
}

int main(void) {
  const double X[16] = {0.9,  -1.3,  0.45, 2.1,  -0.7, 1.6, -2.4,  0.35,
                        1.05, -0.55, 0.8,  -1.9, 1.25, 0.6, -0.95, 1.4};
  double d[16], e[16];
  /* A (M x N) then x in one array; their shadows likewise in d. */
  const int mv[][2] = {{3, 4}, {1, 5}, {4, 1}, {0, 3}};
  for (int t = 0; t != 4; ++t) {
    M = mv[t][0], N = mv[t][1];
    for (int i = 0; i != 16; ++i)
      d[i] = 0;
    double xs[16];
    for (int i = 0; i != 16; ++i)
      xs[i] = 0.5 * X[i];
    __enzyme_autodiff((void *)matvec, xs, d, xs + M * N, d + M * N,
                      enzyme_const, M, enzyme_const, N);
    check("matvec", matvec_at, M * N + N, xs, d);
  }
  const int mm[][3] = {{3, 3, 3}, {2, 4, 2}, {2, 2, 4}, {1, 3, 1}};
  for (int t = 0; t != 4; ++t) {
    M = mm[t][0], K = mm[t][1], N = mm[t][2];
    double A[16], B[16];
    for (int i = 0; i != 16; ++i)
      A[i] = X[i], B[i] = X[15 - i] * 0.7, d[i] = e[i] = 0;
    __enzyme_autodiff((void *)matmul_sq, A, d, B, e, M, K, N);
    for (int i = 0; i != 16; ++i)
      Fixed[i] = B[i];
    check("matmul_sq dA", matmul_A_at, M * K, A, d);
    for (int i = 0; i != 16; ++i)
      Fixed[i] = A[i];
    check("matmul_sq dB", matmul_B_at, K * N, B, e);
  }
  {
    /* L has a dominant diagonal; its upper triangle is not read. */
    double Lb[12] = {2.0,  0.7, -0.4, 0.6, -1.5, 0.3,
                     -0.8, 0.9, 3.0,  0.5, -1.2, 0.8};
    for (int i = 0; i != 12; ++i)
      d[i] = 0;
    __enzyme_autodiff((void *)trisolve, Lb, d, Lb + 9, d + 9, 3);
    check("trisolve", trisolve_at, 12, Lb, d);
    gc_expect("trisolve", "upper triangle", d[1] + d[2] + d[5], 0, 0);
  }
  for (N = 0; N <= 16; N += 4) {
    for (int i = 0; i != 16; ++i)
      d[i] = 0;
    __enzyme_autodiff((void *)pairs, X, d, N);
    check("pairs", pairs_at, N, X, d);
  }
  const int ht[][2] = {{12, 20}, {5, 1}, {3, 0}, {15, 40}};
  for (int t = 0; t != 4; ++t) {
    N = ht[t][0], T = ht[t][1];
    double u[16];
    for (int i = 0; i != N; ++i)
      u[i] = 0.3 * X[i] + 0.5, d[i] = 0;
    u[N] = 0.2;
    d[N] = __enzyme_autodiff((void *)heat, u, d, N, T, u[N]);
    check("heat", heat_at, N + 1, u, d);
  }
  for (T = 0; T <= 6; T += 3) {
    double u[16], u0[16];
    for (int i = 0; i != 16; ++i)
      u[i] = u0[i] = X[(5 * i) % 16], d[i] = 0;
    __enzyme_autodiff((void *)grid, enzyme_dup, u, d, enzyme_const, T);
    check("grid", grid_at, 16, u0, d);
    /* The primal effect: u holds the final grid. */
    double w[16];
    for (int i = 0; i != 16; ++i)
      w[i] = u0[i];
    grid(w, T);
    for (int i = 0; i != 16; ++i)
      gc_expect("grid", "final grid", u[i], w[i], 0);
  }
  return gc_finish();
}
