// More of the standard library inside the differentiated function: a
// std::vector of small structs grown by push_back, std::vector's insert,
// erase and resize, std::valarray arithmetic, std::transform,
// std::max_element and std::for_each with lambdas, an initializer_list; and
// a struct holding a std::vector passed to fn with a shadow struct of the
// same shape (whose vector's elements receive the gradient). At -O0,
// size() is recomputed from the vector's pointers in every iteration.
// References: long-double finite differences of the same templates.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O3 -fsanitize=address %s -o %ta3 && %ta3
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <valarray>
#include <vector>

template <typename T> struct Point {
  T x, y, z;
};

// The spread of points around their centroid.
template <typename T> T spread(const T *v, int n) {
  std::vector<Point<T>> pts;
  for (int i = 0; i < n; ++i)
    pts.push_back({v[i], v[i] * v[i], std::sin(v[i])});
  Point<T> c{0, 0, 0};
  for (const auto &p : pts) {
    c.x += p.x / T(n);
    c.y += p.y / T(n);
    c.z += p.z / T(n);
  }
  T s = 0;
  for (const auto &p : pts)
    s += (p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y) +
         (p.z - c.z) * (p.z - c.z);
  return s;
}

template <typename T> T editing(const T *v, int n) {
  std::vector<T> w(v, v + n);
  w.insert(w.begin() + 1, w[0] * T(2));
  w.erase(w.begin());
  w.resize(n + 3, T(1.5));
  T s = 0;
  for (size_t i = 0; i < w.size(); ++i)
    s += w[i] * w[i] * T(i + 1);
  return s;
}

template <typename T> T algorithms(const T *v, int n) {
  std::vector<T> a(v, v + n), e(n);
  std::transform(a.begin(), a.end(), e.begin(),
                 [](T t) { return std::exp(t); });
  T m = *std::max_element(e.begin(), e.end());
  T s = 0;
  std::for_each(e.begin(), e.end(), [&](T t) { s += t / m; });
  for (T t : {a[0], a[1] * a[2], T(2)})
    s += t * t;
  return s;
}

template <typename T> T valarrays(const T *v, int n) {
  std::valarray<T> a(v, n), b = a * a + T(1);
  return (b * a).sum() + std::sqrt((a * a).sum());
}

template <typename T> struct Model {
  std::vector<T> w;
  T bias;
};
template <typename T> T predict(const Model<T> *m, const T *x) {
  T s = m->bias;
  for (size_t i = 0; i < m->w.size(); ++i)
    s += m->w[i] * x[i];
  return std::tanh(s);
}

constexpr int N = 6;
static int Count;
template <long double (*F)(const long double *, int)>
static long double at(const long double *v) {
  return F(v, Count);
}

template <double (*F)(const double *, int),
          long double (*Ref)(const long double *, int)>
static void check(const char *name, const double *x, int n) {
  double dx[N] = {};
  adjoint::autodiff<void>(F, x, dx, n);
  long double p[N], got[N];
  for (int i = 0; i != n; ++i) {
    p[i] = x[i];
    got[i] = dx[i];
  }
  Count = n;
  gc_grad(name, at<Ref>, n, p, got, GC_TOL_DOUBLE);
}

static const double X[N] = {0.1, -0.3, 0.5, 0.7, -0.2, 0.4};
static long double predictAt(const long double *v) {
  Model<long double> m{{v[0], v[1], v[2]}, v[3]};
  long double x[3] = {X[0], X[1], X[2]};
  return predict(&m, x);
}

int main() {
  for (int n : {3, N}) {
    check<spread<double>, spread<long double>>("spread", X, n);
    check<editing<double>, editing<long double>>("editing", X, n);
    check<algorithms<double>, algorithms<long double>>("algorithms", X, n);
    check<valarrays<double>, valarrays<long double>>("valarrays", X, n);
  }
  // The shadow of a struct holding a vector: a struct whose vector has
  // the same size, zeroed; the gradient arrives in its elements.
  Model<double> m{{0.5, -1, 2}, 0.1}, dm{{0, 0, 0}, 0};
  double dx[3] = {};
  adjoint::autodiff<void>(predict<double>, &m, &dm, X, dx);
  long double p[] = {0.5, -1, 2, 0.1};
  long double got[] = {dm.w[0], dm.w[1], dm.w[2], dm.bias};
  gc_grad("Model", predictAt, 4, p, got, GC_TOL_DOUBLE);
  gc_expect("Model", "shadow size", dm.w.size(), 3, 0);
  return gc_finish();
}
