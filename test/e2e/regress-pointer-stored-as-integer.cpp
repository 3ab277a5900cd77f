// Regression: a std::vector of std::unique_ptr to objects holding
// derivatives. Moving a unique_ptr into the vector stores its pointer as an
// integer (`store i64 (ptrtoint ptr %p)`), which left the pointer's shadow
// behind: at -O2 the gradient was silently zero, at -O0 the reverse pass
// dereferenced a null shadow. Such stores (and integer accesses that the
// type analysis proves move one pointer, or a vector of them, as the
// vectorized loop that relocates the elements when the vector grows does)
// now move the pointers themselves.
// Reference: closed form.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta2 && %ta2
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <memory>
#include <vector>

struct Particle {
  double pos, vel;
  Particle(double p, double v) : pos(p), vel(v) {}
};

// sum_i (x_i + x_i^2 / 2)^2
double energy(const double *x, int n) {
  std::vector<std::unique_ptr<Particle>> ps;
  for (int i = 0; i < n; ++i)
    ps.push_back(std::make_unique<Particle>(x[i], x[i] * x[i]));
  double e = 0;
  for (auto &p : ps) {
    p->pos += p->vel * 0.5;
    e += p->pos * p->pos;
  }
  return e;
}

int main() {
  // Enough particles that the vector's growth moves more than 20 of them,
  // which -O2 does with a vectorized loop of <2 x i64> copies.
  constexpr int N = 40;
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.05 * (i % 7) - 0.1;
    dx[i] = 0;
  }
  adjoint::autodiff<void>(energy, x, dx, N);
  for (int i = 0; i < N; ++i) {
    long double p = x[i] + 0.5L * x[i] * x[i];
    gc_expect("energy", "d/dx", dx[i], 2 * p * (1 + x[i]), GC_TOL_DOUBLE);
  }
  return gc_finish();
}
