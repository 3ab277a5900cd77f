// Standard containers and algorithms inside the differentiated function:
// std::vector<double> constructed with a size, filled, read with range-for,
// grown by push_back (operator new, a byte copy of the old elements,
// sized operator delete of the old block, all inside a loop), .size(),
// passed by const reference to a helper, and destroyed; a
// std::vector<std::vector<double>> whose rows are heap blocks whose
// addresses live in another heap block; std::array; std::accumulate and
// std::inner_product. The sanitizer runs check that every shadow block is
// freed once, with the operator that allocated it.
// References: long-double finite differences of the same code, written
// once as templates and instantiated in long double.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta2 && %ta2
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <array>
#include <cmath>
#include <numeric>
#include <vector>

template <typename T> T sumOfSquares(const std::vector<T> &v) {
  T s = 0;
  for (T e : v)
    s += e * e;
  return s;
}

// Sized, filled by index, grown, read with range-for, passed to a helper.
template <typename T> T vectorOps(const T *x, int n) {
  std::vector<T> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = x[i] * x[(i + 1) % n];
  for (int i = 0; i < n; ++i)
    v.push_back(std::sin(x[i]) + v[i]);
  T s = 0;
  for (T e : v)
    s += e;
  return s * T(v.size()) + sumOfSquares(v);
}

// Starts empty: every element arrives through push_back.
template <typename T> T pushOnly(const T *x, int n) {
  std::vector<T> v;
  for (int i = 0; i < n; ++i) {
    v.push_back(x[i] * x[i]);
    v.push_back(std::exp(x[i]) - v.back());
  }
  T prod = 1;
  for (const T &e : v)
    prod = prod * (T(1) + e / T(4));
  return prod;
}

template <typename T> T matrix(const T *x, int n) {
  std::vector<std::vector<T>> m(n, std::vector<T>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[i][j] = x[i] * x[j] + T(j);
  T s = 0;
  for (const auto &row : m)
    s += sumOfSquares(row) * row[0];
  return s;
}

template <typename T> T arrays(const T *x) {
  std::array<T, 4> a;
  for (int i = 0; i < 4; ++i)
    a[i] = x[i] * T(i + 1);
  T s = std::accumulate(a.begin(), a.end(), T(0));
  return s * std::inner_product(a.begin(), a.end(), x, T(0.5));
}

constexpr int N = 5;
static int Count;
template <long double (*F)(const long double *, int)>
static long double at(const long double *v) {
  return F(v, Count);
}
static long double arraysAt(const long double *v) { return arrays(v); }

template <double (*F)(const double *, int),
          long double (*Ref)(const long double *, int)>
static void check(const char *name, const double *x, int n) {
  double dx[N];
  for (int i = 0; i != N; ++i)
    dx[i] = 0.5; // Gradients accumulate onto what is there.
  adjoint::autodiff<void>(F, x, dx, n);
  long double p[N], got[N];
  for (int i = 0; i != n; ++i) {
    p[i] = x[i];
    got[i] = dx[i] - 0.5L;
  }
  Count = n;
  gc_grad(name, at<Ref>, n, p, got, GC_TOL_DOUBLE);
  for (int i = n; i != N; ++i)
    gc_expect(name, "untouched shadow", dx[i], 0.5L, 0);
}

int main() {
  const double x[N] = {0.3, -0.7, 1.1, 0.45, -0.2};
  for (int n : {1, 2, 3, N}) {
    check<vectorOps<double>, vectorOps<long double>>("vectorOps", x, n);
    check<pushOnly<double>, pushOnly<long double>>("pushOnly", x, n);
    check<matrix<double>, matrix<long double>>("matrix", x, n);
  }
  double dx[4] = {0, 0, 0, 0};
  adjoint::autodiff<void>(arrays<double>, x, dx);
  long double p[] = {x[0], x[1], x[2], x[3]};
  long double got[] = {dx[0], dx[1], dx[2], dx[3]};
  gc_grad("arrays", arraysAt, 4, p, got, GC_TOL_DOUBLE);
  return gc_finish();
}
