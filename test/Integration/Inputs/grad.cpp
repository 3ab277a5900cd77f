// A C++ program for the driver tests: adjoint::autodiff from
// <adjoint/adjoint.h> (the driver's include directory) on a template that
// uses std::vector, checked against finite differences.
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <vector>

template <typename T> T energy(const T *x, int n) {
  std::vector<T> v(x, x + n);
  T s = 0;
  for (T e : v)
    s += std::sin(e) * e;
  return s;
}

static long double energy_at(const long double *v) {
  double x[3] = {double(v[0]), double(v[1]), double(v[2])};
  return energy(x, 3);
}

int main() {
  double x[3] = {0.1, 0.2, 0.3}, dx[3] = {0, 0, 0};
  adjoint::autodiff<void>(energy<double>, x, dx, 3);
  gc_grad("energy", energy_at, 3, (long double[]){x[0], x[1], x[2]},
          (long double[]){dx[0], dx[1], dx[2]}, GC_TOL_DOUBLE);
  return gc_finish();
}
