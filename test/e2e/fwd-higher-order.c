// Second derivatives by combining the modes. Forward over reverse: the
// forward derivative of a function that computes a gradient with
// __enzyme_autodiff is a Hessian-vector product (the gradient's loop caches,
// adjoint accumulation and shadow memory all get tangents). Reverse over
// forward: the gradient of a function returning a forward-mode tangent.
// Forward over forward: a second derivative of a scalar function. Closed
// forms of the second derivatives.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
double __enzyme_autodiff(void *, ...);
typedef struct {
  double dx, dy;
} D2;
D2 __enzyme_autodiff_d2(void *, ...);

#define N 4
/* f(x) = sum_i sin(x_i) x_{i+1 mod n}, a cyclic chain. */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * x[(i + 1) % n];
  return s;
}
void gradient(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)f, x, g, enzyme_const, n);
}
/* (H v)_k = sum_j d2f / dx_k dx_j v_j, from
   d2f/dx_i^2 = -sin(x_i) x_{i+1},  d2f/dx_i dx_{i+1} = cos(x_i). */
static double hessian_times(const double *x, const double *v, int k, int n) {
  int next = (k + 1) % n, prev = (k + n - 1) % n;
  return -sin(x[k]) * x[next] * v[k] + cos(x[k]) * v[next] +
         cos(x[prev]) * v[prev];
}

double g(double x, double y) { return x * x * y + exp(x * y); }
/* dg/dx along (1, 0), as a function of x and y. */
double dg_dx(double x, double y) {
  return __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0);
}
/* d/dx of dg/dx. */
double d2g_dx2(double x, double y) {
  return __enzyme_fwddiff((void *)dg_dx, x, 1.0, y, 0.0);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.4};
  double v[N] = {1, 0.5, -2, 0.25};
  double grad[N], hv[N];
  __enzyme_fwddiff_v((void *)gradient, x, v, grad, hv, N);
  for (int k = 0; k != N; ++k)
    gc_expect("hvp", "H v", hv[k], hessian_times(x, v, k, N), GC_TOL_DOUBLE);

  double a = 0.6, b = 1.7;
  /* dg/dx = 2 x y + y e^{xy}: d/dx = 2 y + y^2 e^{xy},
     d/dy = 2 x + (1 + x y) e^{xy}. */
  D2 h = __enzyme_autodiff_d2((void *)dg_dx, a, b);
  gc_expect("reverse over forward", "d2g/dx2", h.dx,
            2 * b + b * b * exp(a * b), GC_TOL_DOUBLE);
  gc_expect("reverse over forward", "d2g/dxdy", h.dy,
            2 * a + (1 + a * b) * exp(a * b), GC_TOL_DOUBLE);
  gc_expect("forward over forward", "d2g/dx2", d2g_dx2(a, b),
            2 * b + b * b * exp(a * b), GC_TOL_DOUBLE);
  return gc_finish();
}
