// std::function created and called inside the differentiated function: from
// a lambda capturing by value, from one capturing by reference, from a plain
// function, copied, and passed by const reference to a helper. A
// std::function keeps its target's invoker and manager as function pointers
// next to the captures; at -O0 every call loads the invoker back, and AD
// makes these calls direct before inlining them. (Calls whose target cannot
// be known, through a std::function parameter or in a loop, are a
// compile-time error: test/Errors/cxx-std-function.cpp.)
// References: long-double finite differences of the same code.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta && %ta
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <functional>

template <typename T> T damped(T v) { return std::exp(-v * v / T(2)); }

// The trapezoidal rule with two steps, through a reference.
template <typename T> T trapezoid(const std::function<T(T)> &f, T a, T b) {
  T m = (a + b) / T(2);
  return (f(a) + T(2) * f(m) + f(b)) * (b - a) / T(4);
}

template <typename T> T functions(T x, T y) {
  std::function<T(T)> scale = [y](T v) { return std::sin(v) * y; };
  T bias = y * y;
  std::function<T(T)> shift = [&bias](T v) { return v + bias; };
  std::function<T(T)> plain = damped<T>;
  std::function<T(T)> copy = scale;
  return scale(x) * x + shift(copy(x)) + plain(x * y);
}

template <typename T> T quadrature(T x, T y) {
  std::function<T(T)> f = [x](T t) { return std::cos(x * t); };
  return trapezoid<T>(f, T(0), y);
}

static long double functionsAt(const long double *v) {
  return functions(v[0], v[1]);
}
static long double quadratureAt(const long double *v) {
  return quadrature(v[0], v[1]);
}

struct G2 {
  double dx, dy;
};

int main() {
  const double pts[][2] = {{0.7, 1.3}, {-0.4, 0.9}};
  for (const auto &pt : pts) {
    long double p[] = {pt[0], pt[1]};
    G2 g = adjoint::autodiff<G2>(functions<double>, pt[0], pt[1]);
    long double got[] = {g.dx, g.dy};
    gc_grad("functions", functionsAt, 2, p, got, GC_TOL_DOUBLE);
    G2 q = adjoint::autodiff<G2>(quadrature<double>, pt[0], pt[1]);
    long double gotq[] = {q.dx, q.dy};
    gc_grad("quadrature", quadratureAt, 2, p, gotq, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
