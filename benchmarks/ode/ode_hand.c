/*===- ode_hand.c - The ODE gradient written by hand ----------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The discrete adjoint of RK4: a forward sweep that keeps the state before   *|
|* every step, then a backward sweep that recomputes the step's stages from   *|
|* it and pulls the adjoint back through them (vector-Jacobian products of    *|
|* the right-hand side, written out).                                         *|
\*===----------------------------------------------------------------------===*/
#include "ode.h"

#include <stdlib.h>
#include <string.h>

static void rhs(const double *y, const double *a, const double *F, double *dy,
                int n) {
  for (int i = 0; i < n; ++i) {
    int next = i + 1 == n ? 0 : i + 1;
    int prev = i == 0 ? n - 1 : i - 1;
    int prev2 = i < 2 ? n - 2 + i : i - 2;
    dy[i] = (y[next] - y[prev2]) * y[prev] - a[i] * y[i] + F[i];
  }
}

/* yb += J(y)^T w; ab, Fb += the parameters' parts. */
static void rhs_vjp(const double *y, const double *a, const double *w,
                    double *yb, double *ab, double *Fb, int n) {
  for (int i = 0; i < n; ++i) {
    int next = i + 1 == n ? 0 : i + 1;
    int prev = i == 0 ? n - 1 : i - 1;
    int prev2 = i < 2 ? n - 2 + i : i - 2;
    yb[next] += w[i] * y[prev];
    yb[prev2] -= w[i] * y[prev];
    yb[prev] += w[i] * (y[next] - y[prev2]);
    yb[i] -= w[i] * a[i];
    ab[i] -= w[i] * y[i];
    Fb[i] += w[i];
  }
}

static void axpy(double *out, const double *y, double c, const double *k,
                 int n) {
  for (int i = 0; i < n; ++i)
    out[i] = y[i] + c * k[i];
}

void ode_grad_hand(struct ode *p, double *deriv) {
  int n = p->n, steps = p->steps;
  double dt = p->dt;
  const double *a = p->a, *F = p->F;
  double *tape = malloc((size_t)(steps + 1) * n * sizeof(double));
  double *work = malloc(9 * n * sizeof(double));
  double *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n;
  double *y2 = work + 4 * n, *y3 = work + 5 * n, *y4 = work + 6 * n;
  double *wb = work + 7 * n, *stageb = work + 8 * n;

  memcpy(tape, p->y0, n * sizeof(double));
  for (int s = 0; s < steps; ++s) {
    const double *y = tape + (size_t)s * n;
    double *next = tape + (size_t)(s + 1) * n;
    rhs(y, a, F, k1, n);
    axpy(y2, y, dt / 2, k1, n);
    rhs(y2, a, F, k2, n);
    axpy(y3, y, dt / 2, k2, n);
    rhs(y3, a, F, k3, n);
    axpy(y4, y, dt, k3, n);
    rhs(y4, a, F, k4, n);
    for (int i = 0; i < n; ++i)
      next[i] = y[i] + dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }

  double *yb = deriv, *ab = deriv + n, *Fb = deriv + 2 * n;
  memset(deriv, 0, 3 * n * sizeof(double));
  const double *last = tape + (size_t)steps * n;
  for (int i = 0; i < n; ++i)
    yb[i] = last[i];
  for (int s = steps - 1; s >= 0; --s) {
    const double *y = tape + (size_t)s * n;
    rhs(y, a, F, k1, n);
    axpy(y2, y, dt / 2, k1, n);
    rhs(y2, a, F, k2, n);
    axpy(y3, y, dt / 2, k2, n);
    rhs(y3, a, F, k3, n);
    axpy(y4, y, dt, k3, n);
    /* yb is the adjoint of y_{s+1}, which reaches y directly and stage j
       with weight dt/6 * (1, 2, 2, 1); the stages are undone last first.
       wb is the adjoint of the point the stage just undone was evaluated
       at, which also feeds the previous stage through that point. */
    double *ybar = k4;
    memcpy(ybar, yb, n * sizeof(double));
    static const double weight[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    static const double offset[4] = {0, 0.5, 0.5, 1}; /* y_j = y + dt c k_{j-1} */
    const double *point[4] = {y, y2, y3, y4};
    memset(wb, 0, n * sizeof(double));
    for (int j = 3; j >= 0; --j) {
      double c = j < 3 ? offset[j + 1] : 0;
      for (int i = 0; i < n; ++i)
        stageb[i] = dt * weight[j] * ybar[i] + dt * c * wb[i];
      if (j == 0) {
        rhs_vjp(y, a, stageb, yb, ab, Fb, n);
        break;
      }
      memset(wb, 0, n * sizeof(double));
      rhs_vjp(point[j], a, stageb, wb, ab, Fb, n);
      for (int i = 0; i < n; ++i)
        yb[i] += wb[i];
    }
  }
  free(tape);
  free(work);
}
