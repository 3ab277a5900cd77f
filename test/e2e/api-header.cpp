// Checks <adjoint/adjoint.h> from C++: its declarations used directly, and
// the typed helper adjoint::autodiff<R>(f, args...), on C++ functions
// (mangled names, namespaces, templates, static members).
// RUN: %clang-adjoint -x c++ -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -x c++ -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -x c++ -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -x c++ -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -x c++ -O2 -ffast-math -g %s -o %tf -lm && %tf
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>

namespace geometry {
double area(double r, double h) { return 2 * r * r + std::sin(h) * r; }
} // namespace geometry

double volume(double a, double b, double c) { return a * b * c + a; }

template <typename T> T cube(T x) { return x * x * x - x; }

struct Model {
  static double energy(double x, int n, double y) {
    return n > 0 ? x * y * n : std::exp(x) - y;
  }
};

static long double area_at(const long double *v) {
  return geometry::area(v[0], v[1]);
}
static long double cube_at(const long double *v) { return cube(v[0]); }
static int n_now;
static long double energy_at(const long double *v) {
  return Model::energy(v[0], n_now, v[1]);
}

struct G2 { double dx, dy; };
struct G3 { double dx, dy, dz; };

int main() {
  const double pts[][2] = {{0.7, 1.3}, {-1.2, 0.4}};
  for (const auto &pt : pts) {
    double x = pt[0], y = pt[1];
    long double p[] = {x, y};
    long double ax = gc_fd(area_at, p, 2, 0), ay = gc_fd(area_at, p, 2, 1);
    long double cx = gc_fd(cube_at, p, 1, 0);

    // The header's declaration, called directly: one double gradient.
    gc_expect("header decl", "d/dr",
              __enzyme_autodiff((void *)geometry::area, x, enzyme_const, y),
              ax, GC_TOL_DOUBLE);
    gc_expect("header decl", "template",
              __enzyme_autodiff((void *)cube<double>, x), cx, GC_TOL_DOUBLE);

    // adjoint::autodiff is an ordinary inline function: at -O0 it is not
    // inlined, so the plugin must find the function and the markers through
    // its parameters' stack copies.
    G2 g = adjoint::autodiff<G2>(geometry::area, x, y);
    gc_expect("autodiff<G2>", "d/dr", g.dx, ax, GC_TOL_DOUBLE);
    gc_expect("autodiff<G2>", "d/dh", g.dy, ay, GC_TOL_DOUBLE);
    gc_expect("autodiff<double>", "d/dh",
              adjoint::autodiff<double>(geometry::area, enzyme_const, x, y),
              ay, GC_TOL_DOUBLE);
    long double fx = (float)x; // cube<float> sees x rounded to float
    gc_expect("autodiff<float>", "template",
              adjoint::autodiff<float>(cube<float>, (float)x),
              3 * fx * fx - 1, GC_TOL_FLOAT);
    for (n_now = -1; n_now <= 2; n_now += 3) {
      G2 e = adjoint::autodiff<G2>(Model::energy, x, n_now, y);
      gc_expect("static member", "dx", e.dx, gc_fd(energy_at, p, 2, 0),
                GC_TOL_DOUBLE);
      gc_expect("static member", "dy", e.dy, gc_fd(energy_at, p, 2, 1),
                GC_TOL_DOUBLE);
    }
    // Three gradients: the struct comes back through sret.
    G3 h = adjoint::autodiff<G3>(volume, x, y, 1.5);
    gc_expect("autodiff<G3>", "da", h.dx, y * 1.5L + 1, GC_TOL_DOUBLE);
    gc_expect("autodiff<G3>", "db", h.dy, x * 1.5L, GC_TOL_DOUBLE);
    gc_expect("autodiff<G3>", "dc", h.dz, (long double)x * y, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
