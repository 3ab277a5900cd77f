// Regression: a std::vector constructed with a size and then grown by
// push_back in a loop frees its first block inside the loop, with the
// sized operator delete and a size computed in the loop. The shadow of
// that first block is freed when the reverse pass reaches its allocation,
// outside the loop, where that size is not available: it was an internal
// error ("a primal value the gradient needs could not be provided"). The
// shadow block is freed with the size of its own allocation.
// Reference: closed form.
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta && %ta
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <vector>

// sum_i (x_i^2 + 3 x_i).
double grow(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = x[i] * x[i];
  for (int i = 0; i < n; ++i)
    v.push_back(3 * x[i]);
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}

int main() {
  double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {0, 0, 0, 0};
  adjoint::autodiff<void>(grow, x, dx, 4);
  for (int i = 0; i < 4; ++i)
    gc_expect("grow", "d/dx", dx[i], 2.0L * x[i] + 3, GC_TOL_DOUBLE);
  return gc_finish();
}
