// The model of the Make example: a decay curve y = a * exp(-b * t) fitted to
// measurements by least squares. The gradient of the loss comes from Adjoint;
// __enzyme_autodiff must be called in the file that defines the function it
// differentiates (without link-time AD), so both are here.
#include "model.h"

#include <adjoint/adjoint.h>
#include <math.h>

// The sum of squared residuals of the curve with parameters p = {a, b}.
double loss(const double *p, const double *t, const double *y, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    double r = p[0] * exp(-p[1] * t[i]) - y[i];
    sum += r * r;
  }
  return sum;
}

void loss_gradient(const double *p, double *grad, const double *t,
                   const double *y, int n) {
  grad[0] = grad[1] = 0; // Adjoint adds the gradient to the shadow.
  // p is active: its shadow grad receives d loss / d p. The data is
  // constant, and n, an integer, is constant by default.
  __enzyme_autodiff((void *)loss, enzyme_dup, p, grad, enzyme_const, t,
                    enzyme_const, y, n);
}
