// The Make example: fits a decay curve to data by gradient descent, with the
// gradient from Adjoint (model.c), after checking that gradient against
// central finite differences. Exits with status 1 if they disagree.
#include "model.h"

#include <math.h>
#include <stdio.h>

enum { N = 8 };
// Measurements of 3 * exp(-0.5 t), rounded.
static const double t[N] = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5};
static const double y[N] = {3.00, 2.34, 1.82, 1.42, 1.10, 0.86, 0.67, 0.52};

// Returns 1 if the gradient at p agrees with finite differences.
static int check(const double *p) {
  double grad[2];
  loss_gradient(p, grad, t, y, N);
  int ok = 1;
  for (int i = 0; i < 2; ++i) {
    double h = 1e-6, lo[2] = {p[0], p[1]}, hi[2] = {p[0], p[1]};
    lo[i] -= h;
    hi[i] += h;
    double fd = (loss(hi, t, y, N) - loss(lo, t, y, N)) / (2 * h);
    int close = fabs(grad[i] - fd) <= 1e-6 * (1 + fabs(fd));
    printf("d loss / d p[%d] = %+.10f  finite difference %+.10f  %s\n", i,
           grad[i], fd, close ? "ok" : "WRONG");
    ok &= close;
  }
  return ok;
}

int main(void) {
  double p[2] = {1.0, 1.0};
  if (!check(p))
    return 1;

  for (int step = 0; step < 2000; ++step) {
    double grad[2];
    loss_gradient(p, grad, t, y, N);
    p[0] -= 0.02 * grad[0];
    p[1] -= 0.02 * grad[1];
  }
  printf("fitted y = %.3f * exp(-%.3f t), loss %.2e\n", p[0], p[1],
         loss(p, t, y, N));
  // The data came from a = 3, b = 0.5.
  return fabs(p[0] - 3) < 0.05 && fabs(p[1] - 0.5) < 0.05 ? 0 : 1;
}
