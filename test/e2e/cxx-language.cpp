// C++ inside the differentiated function: a function template instantiated
// for double and float, lambdas (called directly, capturing by value and by
// reference, and passed to a hand-written template algorithm), references
// (const double& inputs, double& outputs), and a small class with
// constructors, methods and overloaded operators. At -O0 every one of these
// is a call (many of them invokes, whose unwind paths run destructors).
// References: long-double finite differences of the same code, which is
// written once as templates and instantiated in long double.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O1 -fsanitize=address %s -o %ta && %ta
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>

template <typename T> T cubic(T x) { return x * x * x - T(2) * x + T(1); }

// Calls the template for each precision through another template.
template <typename T> T scaledCubic(T x, T s) { return s * cubic(x); }

template <typename F, typename T> T apply(F f, T x) { return f(x); }
template <typename F, typename T> T applyTwice(F f, T x) { return f(f(x)); }

template <typename T> T lambdas(T x, T y) {
  auto square = [](T v) { return v * v; };
  auto byValue = [y](T v) { return v * y; };
  T offset = std::sin(y);
  auto byReference = [&](T v) { return std::sin(v) * offset + y; };
  return square(x) + apply(byValue, x) + applyTwice(byReference, x);
}

template <typename T> void outputs(const T &a, const T &b, T &sum, T &prod) {
  sum = a + b * std::exp(a);
  prod = a * b;
}
template <typename T> T references(T x, T y) {
  T s, p;
  outputs(x, y, s, p);
  return s * p + s;
}

template <typename T> struct Vec3 {
  T x, y, z;
  Vec3(T a, T b, T c) : x(a), y(b), z(c) {}
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  T norm() const { return std::sqrt(dot(*this)); }
};
template <typename T> T geometry(T a, T b, T c) {
  Vec3<T> u(a, b, c), v(b, c * c, a);
  Vec3<T> w = (u + v) * a;
  w += u;
  return w.dot(v) + u.norm();
}

// Through the pointer API: a method that writes its result through a
// reference into the caller's memory.
struct Accumulator {
  double total = 0;
  void add(const double &v, double weight) { total += v * v * weight; }
};
void accumulate(const double *x, double *out) {
  Accumulator acc;
  for (int i = 0; i < 3; ++i)
    acc.add(x[i], i + 1.0);
  *out = acc.total;
}

static long double cubicAt(const long double *v) { return cubic(v[0]); }
static long double scaledAt(const long double *v) {
  return scaledCubic(v[0], v[1]);
}
static long double lambdasAt(const long double *v) {
  return lambdas(v[0], v[1]);
}
static long double referencesAt(const long double *v) {
  return references(v[0], v[1]);
}
static long double geometryAt(const long double *v) {
  return geometry(v[0], v[1], v[2]);
}

struct G2 {
  double dx, dy;
};
struct G2f {
  float dx, dy;
};
struct G3 {
  double da, db, dc;
};

int main() {
  const double pts[][3] = {{0.7, 1.3, -0.4}, {-1.1, 0.6, 0.9}};
  for (const auto &pt : pts) {
    long double p[] = {pt[0], pt[1], pt[2]};

    double dc = adjoint::autodiff<double>(cubic<double>, pt[0]);
    long double got1[] = {dc};
    gc_grad("cubic<double>", cubicAt, 1, p, got1, GC_TOL_DOUBLE);

    // The float instantiation: finite differences of the long double
    // instantiation at the point rounded to float.
    long double pf[] = {(float)pt[0], (float)pt[1]};
    G2f sf = adjoint::autodiff<G2f>(scaledCubic<float>, (float)pt[0],
                                    (float)pt[1]);
    long double gotf[] = {sf.dx, sf.dy};
    gc_grad("scaledCubic<float>", scaledAt, 2, pf, gotf, GC_TOL_FLOAT);
    G2 sd = adjoint::autodiff<G2>(scaledCubic<double>, pt[0], pt[1]);
    long double gotd[] = {sd.dx, sd.dy};
    gc_grad("scaledCubic<double>", scaledAt, 2, p, gotd, GC_TOL_DOUBLE);

    G2 l = adjoint::autodiff<G2>(lambdas<double>, pt[0], pt[1]);
    long double gotl[] = {l.dx, l.dy};
    gc_grad("lambdas", lambdasAt, 2, p, gotl, GC_TOL_DOUBLE);

    G2 r = adjoint::autodiff<G2>(references<double>, pt[0], pt[1]);
    long double gotr[] = {r.dx, r.dy};
    gc_grad("references", referencesAt, 2, p, gotr, GC_TOL_DOUBLE);

    G3 g = adjoint::autodiff<G3>(geometry<double>, pt[0], pt[1], pt[2]);
    long double gotg[] = {g.da, g.db, g.dc};
    gc_grad("geometry", geometryAt, 3, p, gotg, GC_TOL_DOUBLE);

    // d/dx_i of sum (i + 1) x_i^2 = 2 (i + 1) x_i, seeded with 2.
    double x[3] = {pt[0], pt[1], pt[2]}, dx[3] = {0.25, 0.25, 0.25};
    double out = 0, dout = 2;
    adjoint::autodiff<void>(accumulate, x, dx, &out, &dout);
    for (int i = 0; i < 3; ++i)
      gc_expect("Accumulator", "dx", dx[i], 0.25L + 2 * 2 * (i + 1) * x[i],
                GC_TOL_DOUBLE);
    gc_expect("Accumulator", "seed consumed", dout, 0, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
