// Forward mode through loops: tangents follow the loop's phis, so loops of
// any shape need nothing of their own. A reduction (sum of squares, a dot
// product) that the optimizer vectorizes at -O3, a scalar recurrence with a
// constant trip count, an in-place recurrence over an array (x[i] depends
// on x[i-1]), a nest (matrix-vector product, triangular), and a loop left
// by a data-dependent break. References: finite differences of the same C
// code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O3 -march=x86-64-v3 %s -o %tv -lm && %tv
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#define N 13 /* odd: vectorized loops have a remainder; gc_fd takes up to 16 */
static int Out;

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
static long double sumsq_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return sumsq(x, N);
}
static long double dot_at(const long double *v) {
  double a[N], b[N];
  for (int i = 0; i != N; ++i)
    a[i] = v[i], b[i] = 1.0 / (i + 1);
  return dot(a, b, N);
}

double iterate(double x, double y) {
  for (int i = 0; i < 100; ++i)
    x = x + 0.01 * sin(x * y) - 0.005 * x;
  return x * y;
}
static long double iterate_at(const long double *v) {
  return iterate(v[0], v[1]);
}

/* x[i] = x[i-1] * c + x[i]: each element depends on the updated previous
   one. */
void recur(double *x, double c, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = x[i - 1] * c + sin(x[i]);
}
static long double recur_at(const long double *v) {
  double x[5] = {v[0], v[1], v[2], v[3], v[4]};
  recur(x, v[5], 5);
  return x[Out];
}

/* y = A x, and a triangular nest. */
void matvec(const double *a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}
static long double matvec_at(const long double *v) {
  double a[9], x[3], y[3];
  for (int i = 0; i != 9; ++i)
    a[i] = v[i];
  for (int i = 0; i != 3; ++i)
    x[i] = v[9 + i];
  matvec(a, x, y, 3);
  return y[Out];
}
double triangle(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      s += x[i] * cos(x[j]);
  return s;
}
static long double triangle_at(const long double *v) {
  double x[4] = {v[0], v[1], v[2], v[3]};
  return triangle(x, 4);
}

/* Stops when the running product exceeds a bound. */
double until(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i) {
    p *= x[i];
    if (p > 2)
      break;
  }
  return p;
}
static long double until_at(const long double *v) {
  double x[4] = {v[0], v[1], v[2], v[3]};
  return until(x, 4);
}

int main(void) {
  {
    double x[N], dx[N];
    long double at[N], dir[N];
    for (int i = 0; i != N; ++i) {
      x[i] = at[i] = 0.1 * i - 1;
      dx[i] = dir[i] = (i % 3) - 1.0;
    }
    gc_tangent("sumsq", sumsq_at, N, at, dir,
               __enzyme_fwddiff((void *)sumsq, x, dx, N), GC_TOL_DOUBLE);
    double b[N];
    for (int i = 0; i != N; ++i)
      b[i] = 1.0 / (i + 1);
    gc_tangent("dot", dot_at, N, at, dir,
               __enzyme_fwddiff((void *)dot, x, dx, enzyme_const, b, N),
               GC_TOL_DOUBLE);
  }
  gc_tangent("iterate", iterate_at, 2, (long double[]){0.3, 2.0},
             (long double[]){1, -1},
             __enzyme_fwddiff((void *)iterate, 0.3, 1.0, 2.0, -1.0),
             GC_TOL_DOUBLE);
  for (Out = 0; Out != 5; ++Out) {
    double x[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, dx[5] = {1, 0, -1, 0.5, 2};
    __enzyme_fwddiff_v((void *)recur, x, dx, 0.9, 0.25, 5);
    gc_tangent("recur", recur_at, 6,
               (long double[]){0.1, 0.2, 0.3, 0.4, 0.5, 0.9},
               (long double[]){1, 0, -1, 0.5, 2, 0.25}, dx[Out],
               GC_TOL_DOUBLE);
  }
  for (Out = 0; Out != 3; ++Out) {
    double a[9], da[9], x[3] = {0.5, -1, 2}, dx[3] = {1, 1, 0}, y[3],
                        dy[3] = {0, 0, 0};
    long double at[12], dir[12];
    for (int i = 0; i != 9; ++i) {
      at[i] = a[i] = 0.1 * i + 0.3;
      dir[i] = da[i] = i % 2 ? 0.5 : -1;
    }
    for (int i = 0; i != 3; ++i)
      at[9 + i] = x[i], dir[9 + i] = dx[i];
    __enzyme_fwddiff_v((void *)matvec, a, da, x, dx, y, dy, 3);
    gc_tangent("matvec", matvec_at, 12, at, dir, dy[Out], GC_TOL_DOUBLE);
  }
  {
    double x[4] = {0.3, -0.7, 1.1, 2.5}, dx[4] = {1, 2, 3, 4};
    gc_tangent("triangle", triangle_at, 4,
               (long double[]){0.3, -0.7, 1.1, 2.5},
               (long double[]){1, 2, 3, 4},
               __enzyme_fwddiff((void *)triangle, x, dx, 4), GC_TOL_DOUBLE);
  }
  /* Leaves after the 2nd element (1.5 * 1.6 > 2), and runs through. */
  long double stops[4] = {1.5, 1.6, 3, 4}, runs[4] = {0.5, 0.6, 0.7, 0.8};
  long double *points[2] = {stops, runs};
  for (int k = 0; k != 2; ++k) {
    double x[4], dx[4] = {1, -1, 2, 0.5};
    for (int i = 0; i != 4; ++i)
      x[i] = points[k][i];
    gc_tangent("until", until_at, 4, points[k],
               (long double[]){1, -1, 2, 0.5},
               __enzyme_fwddiff((void *)until, x, dx, 4), GC_TOL_DOUBLE);
  }
  return gc_finish();
}
