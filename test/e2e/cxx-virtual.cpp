// Virtual calls on objects the differentiated function creates: on the
// stack, passed by reference to a helper, and on the heap through a
// std::unique_ptr (whose destructor is a virtual call too). The object's
// constructor stores its vtable's address, the call loads it back and reads
// the function from the constant vtable; AD follows that and makes the
// call direct, also at -O0. A vtable is its own shadow. (Calls that
// dispatch on objects chosen at run time stay indirect: an error, see
// test/Errors/cxx-virtual-dispatch.cpp.) References: long-double finite
// differences of the same code.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta && %ta
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <memory>

template <typename T> struct Shape {
  virtual ~Shape() {}
  virtual T area(T s) const = 0;
};
template <typename T> struct Square : Shape<T> {
  T area(T s) const override { return s * s; }
};
template <typename T> struct Circle : Shape<T> {
  T k;
  explicit Circle(T k) : k(k) {}
  T area(T s) const override { return k * T(3.14159) * s * s; }
};

template <typename T> static T measure(const Shape<T> &s, T x) {
  return s.area(x);
}

template <typename T> T total(T x, T y) {
  Square<T> sq;
  Circle<T> c(y);
  T t = measure<T>(sq, x) + measure<T>(c, std::sin(x));
  std::unique_ptr<Shape<T>> h = std::make_unique<Circle<T>>(x * y);
  return t + h->area(y);
}

static long double totalAt(const long double *v) { return total(v[0], v[1]); }

struct G2 {
  double dx, dy;
};

int main() {
  const double pts[][2] = {{0.7, 1.3}, {-0.4, 2.2}};
  for (const auto &pt : pts) {
    G2 g = adjoint::autodiff<G2>(total<double>, pt[0], pt[1]);
    long double p[] = {pt[0], pt[1]}, got[] = {g.dx, g.dy};
    gc_grad("total", totalAt, 2, p, got, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
