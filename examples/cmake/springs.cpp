// The CMake example's C++ program: a chain of masses hanging from springs.
// Adjoint differentiates the chain's energy with respect to the heights of
// the masses (the gradient is minus the forces on them); the program checks
// the gradient against central finite differences, then lets the chain
// settle by gradient descent and compares with the exact equilibrium.
// Exits with status 1 if either check fails.
#include <adjoint/adjoint.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {
constexpr double Stiffness = 50, RestLength = 1, Mass = 0.5, Gravity = 9.81;
}

// Mass i hangs at height x[i] from mass i - 1 (mass 0 from the anchor at
// height 0) by a spring. Elastic plus gravitational energy.
double energy(const double *x, int n) {
  std::vector<double> stretch(n);
  for (int i = 0; i < n; ++i)
    stretch[i] = (i == 0 ? 0.0 : x[i - 1]) - x[i] - RestLength;
  auto elastic = [](double s) { return 0.5 * Stiffness * s * s; };
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += elastic(stretch[i]) + Mass * Gravity * x[i];
  return e;
}

// grad = d energy / d x, from Adjoint: x is followed by its shadow, which
// receives the gradient; n, an integer, is constant.
static std::vector<double> gradient(const std::vector<double> &x) {
  std::vector<double> grad(x.size(), 0.0);
  adjoint::autodiff<void>(energy, x.data(), grad.data(), int(x.size()));
  return grad;
}

int main() {
  const int n = 5;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = -1.2 * (i + 1) - 0.1 * i * i; // springs stretched unevenly

  bool ok = true;
  std::vector<double> grad = gradient(x);
  for (int i = 0; i < n; ++i) {
    const double h = 1e-6;
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    double fd = (energy(xp.data(), n) - energy(xm.data(), n)) / (2 * h);
    bool close = std::fabs(grad[i] - fd) <= 1e-6 * (1 + std::fabs(fd));
    std::printf("d energy / d x%d = %+.8f  finite difference %+.8f  %s\n", i,
                grad[i], fd, close ? "ok" : "WRONG");
    ok = ok && close;
  }

  for (int step = 0; step < 3000; ++step) {
    grad = gradient(x);
    for (int i = 0; i < n; ++i)
      x[i] -= 0.005 * grad[i];
  }
  // At rest, spring i carries the n - i masses below it.
  double worst = 0, exact = 0;
  for (int i = 0; i < n; ++i) {
    exact -= RestLength + (n - i) * Mass * Gravity / Stiffness;
    worst = std::fmax(worst, std::fabs(x[i] - exact));
  }
  std::printf("settled: lowest mass at %.4f (exact %.4f)\n", x[n - 1], exact);
  return ok && worst < 1e-6 ? 0 : 1;
}
