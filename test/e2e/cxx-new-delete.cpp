// Heap blocks from every form of operator new inside the differentiated
// function: new and delete of an over-aligned type (operator new(size_t,
// align_val_t) and the aligned delete, sized or not), new[] and delete[] of an
// over-aligned type, std::nothrow new[], std::make_unique of an array, and
// new/delete of a class whose constructor and destructor are not trivial.
// Each shadow block comes from the same operator and is freed with the
// matching delete: the sanitizer runs report a mismatch, a leak or a
// misaligned block. References: closed forms.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta2 && %ta2
// Unsized deletes (_ZdlPv, _ZdlPvSt11align_val_t) instead of sized ones:
// RUN: %clangxx-adjoint -O0 -fno-sized-deallocation -fsanitize=address %s \
// RUN:   -o %tu && %tu
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>

struct alignas(64) Block {
  double v[8];
};

static bool aligned64(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p) % 64 == 0;
}
static int Misaligned;

// sum_i x_i^3 through an over-aligned heap object.
double overAligned(const double *x) {
  Block *b = new Block;
  Misaligned += !aligned64(b);
  for (int i = 0; i < 8; ++i)
    b->v[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += b->v[i] * x[i];
  delete b;
  return s;
}

// An array of over-aligned objects: new[] and delete[] with alignment.
double overAlignedArray(const double *x, int n) {
  Block *b = new Block[n];
  Misaligned += !aligned64(b);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < 8; ++i)
      b[k].v[i] = x[i] * (k + 1);
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += b[k].v[k % 8] * b[k].v[(k + 1) % 8];
  delete[] b;
  return s;
}

// std::nothrow: a null block is handled in the primal.
double noThrow(const double *x) {
  double *p = new (std::nothrow) double[4];
  if (!p)
    return 0;
  for (int i = 0; i < 4; ++i)
    p[i] = std::exp(x[i]);
  double s = p[0] * p[1] + p[2] * p[3];
  delete[] p;
  return s;
}

// std::unique_ptr<double[]> frees its array when it goes out of scope.
double uniqueArray(const double *x) {
  auto p = std::make_unique<double[]>(3);
  p[0] = x[0] * 2;
  p[1] = p[0] * x[1];
  p[2] = p[1] * x[2];
  return p[2] + p[0];
}

// A class with a constructor and a destructor that do work.
struct Polynomial {
  double *c;
  int n;
  Polynomial(const double *coeffs, int count) : c(new double[count]), n(count) {
    for (int i = 0; i < n; ++i)
      c[i] = coeffs[i];
  }
  ~Polynomial() { delete[] c; }
  double operator()(double t) const {
    double r = 0;
    for (int i = n - 1; i >= 0; --i)
      r = r * t + c[i];
    return r;
  }
};
double horner(const double *coeffs, double t) {
  Polynomial *p = new Polynomial(coeffs, 4);
  double r = (*p)(t);
  delete p;
  return r;
}

int main() {
  const double x[8] = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8};

  double dx[8] = {};
  adjoint::autodiff<void>(overAligned, x, dx);
  for (int i = 0; i < 8; ++i)
    gc_expect("overAligned", "d/dx", dx[i], 3.0L * x[i] * x[i],
              GC_TOL_DOUBLE);

  // s = sum_k (k+1)^2 x_{k%8} x_{(k+1)%8} for k < n.
  const int n = 3;
  double da[8] = {};
  adjoint::autodiff<void>(overAlignedArray, x, da, n);
  long double want[8] = {};
  for (int k = 0; k < n; ++k) {
    int i = k % 8, j = (k + 1) % 8;
    want[i] += (k + 1.0L) * (k + 1) * x[j];
    want[j] += (k + 1.0L) * (k + 1) * x[i];
  }
  for (int i = 0; i < 8; ++i)
    gc_expect("overAlignedArray", "d/dx", da[i], want[i], GC_TOL_DOUBLE);

  double dn[4] = {};
  adjoint::autodiff<void>(noThrow, x, dn);
  long double e01 = std::exp((long double)x[0] + x[1]);
  long double e23 = std::exp((long double)x[2] + x[3]);
  long double wantN[] = {e01, e01, e23, e23};
  for (int i = 0; i < 4; ++i)
    gc_expect("noThrow", "d/dx", dn[i], wantN[i], GC_TOL_DOUBLE);

  // p2 + p0 = 2 x0 x1 x2 + 2 x0.
  double du[3] = {};
  adjoint::autodiff<void>(uniqueArray, x, du);
  gc_expect("uniqueArray", "d/dx0", du[0], 2.0L * x[1] * x[2] + 2,
            GC_TOL_DOUBLE);
  gc_expect("uniqueArray", "d/dx1", du[1], 2.0L * x[0] * x[2], GC_TOL_DOUBLE);
  gc_expect("uniqueArray", "d/dx2", du[2], 2.0L * x[0] * x[1], GC_TOL_DOUBLE);

  // d/dc_i = t^i; d/dt = c1 + 2 c2 t + 3 c3 t^2.
  double dc[4] = {}, t = 1.5;
  double dt = adjoint::autodiff<double>(horner, x, dc, t);
  for (int i = 0; i < 4; ++i)
    gc_expect("horner", "d/dc", dc[i], std::pow(1.5L, i), GC_TOL_DOUBLE);
  gc_expect("horner", "d/dt", dt, x[1] + 2 * x[2] * 1.5L + 3 * x[3] * 2.25L,
            GC_TOL_DOUBLE);

  gc_expect("operator new", "misaligned blocks", Misaligned, 0, 0);
  return gc_finish();
}
