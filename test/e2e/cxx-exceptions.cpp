// Code that may throw inside the differentiated function: calls that may
// throw while objects with destructors are alive (invokes whose landing
// pads run the destructors, at every level for operator new), a throw on a
// path the inputs do not take, with a message formatted from the input, a
// catch (...) that cleans up and rethrows, and a noexcept function calling
// one that may throw (a landing pad that calls std::terminate). AD takes
// the unwind paths as not taken; the gradients are those of the run that
// does not throw, and code only on the way to a throw needs no derivative.
// With -DTHROWS (not under the sanitizer, which would report what the
// skipped cleanups leak), an exception thrown while the gradient runs
// reaches the caller's caller.
// References: long-double finite differences of the same code.
// RUN: %clangxx-adjoint -O0 -DTHROWS %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 -DTHROWS %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 -DTHROWS %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 -DTHROWS %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math -DTHROWS %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta2 && %ta2
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

static int Destroyed;

// A destructor with an effect the optimizer must keep.
template <typename T> struct Scratch {
  std::vector<T> v;
  explicit Scratch(int n) : v(n) {}
  ~Scratch() { ++Destroyed; }
};

// The message is formatted from the input: code on the way to the throw,
// which the gradient never completes, needs no derivative (it was "call to
// '__to_xstring' receives a value that carries a derivative and may write
// results derived from it to memory").
template <typename T> T checked(T x) {
  if (!(x > T(-10)))
    throw std::domain_error("x = " + std::to_string(x) + " is out of range");
  return std::sqrt(x + T(10));
}

template <typename T> T cleanups(T x, T y) {
  Scratch<T> a(2), b(3);
  a.v[0] = x * y;
  a.v[1] = checked(x);
  b.v[2] = a.v[0] * a.v[1] + y;
  return b.v[2] * x;
}

// catch (...) that only cleans up and rethrows is a cleanup.
template <typename T> T rethrows(T x, T y) {
  T *p = new T[2];
  try {
    p[0] = checked(x) * y;
    p[1] = checked(y) * x;
  } catch (...) {
    delete[] p;
    throw;
  }
  T r = p[0] + p[1] * p[0];
  delete[] p;
  return r;
}

template <typename T> T guarded(T x) noexcept { return checked(x) * x; }
template <typename T> T noexceptCaller(T x, T y) {
  return guarded(x) + guarded(y) * y;
}

template <long double (*F)(long double, long double)>
static long double at(const long double *v) {
  return F(v[0], v[1]);
}

struct G2 {
  double dx, dy;
};

template <double (*F)(double, double),
          long double (*Ref)(long double, long double)>
static void check(const char *name, double x, double y) {
  G2 g = adjoint::autodiff<G2>(F, x, y);
  long double p[] = {x, y}, got[] = {g.dx, g.dy};
  gc_grad(name, at<Ref>, 2, p, got, GC_TOL_DOUBLE);
}

#ifdef THROWS
// The exception leaves the gradient, and the function that called
// __enzyme_autodiff, towards a handler further out.
__attribute__((noinline)) static double gradientOf(double x) {
  return adjoint::autodiff<G2>(cleanups<double>, x, 1.0).dx;
}
static void checkThrows() {
  bool Caught = false;
  try {
    gradientOf(-20.0);
  } catch (const std::domain_error &) {
    Caught = true;
  }
  gc_expect("throwing gradient", "caught", Caught, 1, 0);
}
#endif

int main() {
  const double pts[][2] = {{0.7, 1.3}, {-2.5, 0.4}};
  for (const auto &pt : pts) {
    check<cleanups<double>, cleanups<long double>>("cleanups", pt[0], pt[1]);
    check<rethrows<double>, rethrows<long double>>("rethrows", pt[0], pt[1]);
    check<noexceptCaller<double>, noexceptCaller<long double>>(
        "noexcept", pt[0], pt[1]);
  }
  // The gradient's forward pass runs the destructors, as fn does.
  int Before = Destroyed;
  adjoint::autodiff<G2>(cleanups<double>, 0.5, 0.5);
  gc_expect("cleanups", "destructors run", Destroyed - Before, 2, 0);
#ifdef THROWS
  checkThrows();
#endif
  return gc_finish();
}
