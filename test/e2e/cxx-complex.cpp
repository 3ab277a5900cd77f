// std::complex<double> and std::complex<float> inside the differentiated
// function, with a real loss: arithmetic (libstdc++ multiplies and divides
// as C99 does, through __muldc3/__divdc3 unless -ffast-math), abs, arg,
// norm, exp, log, sqrt, pow, sin, cosh, real, imag and conj; a
// std::vector of complex numbers; and a loop (a discrete Fourier transform
// of the inputs, whose power spectrum is the loss).
// References: long-double finite differences of the same templates
// instantiated for long double.
// RUN: %clangxx-adjoint -O0 %s -o %t0 && %t0
// RUN: %clangxx-adjoint -O1 %s -o %t1 && %t1
// RUN: %clangxx-adjoint -O2 %s -o %t2 && %t2
// RUN: %clangxx-adjoint -O3 %s -o %t3 && %t3
// RUN: %clangxx-adjoint -O2 -ffast-math %s -o %tf && %tf
// RUN: %clangxx-adjoint -O0 -fsanitize=address %s -o %ta0 && %ta0
// RUN: %clangxx-adjoint -O2 -fsanitize=address %s -o %ta2 && %ta2
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <cmath>
#include <complex>
#include <vector>

template <typename T> T mixed(T a, T b, T c) {
  std::complex<T> z(a, b), w(c, a * b);
  std::complex<T> p = z * w, q = z / w;
  std::complex<T> e = std::exp(p * T(0.5));
  std::complex<T> s = std::sqrt(q + T(2));
  T r = std::abs(e) + std::real(s) * std::imag(s) + std::norm(q) +
        std::arg(p);
  r += std::real(std::log(z)) + std::imag(std::pow(z, w)) +
       std::real(std::sin(z) * std::cosh(w));
  return r + std::real(std::conj(p) * z);
}

// The power spectrum of x (n real samples), through a vector of complex
// numbers: sum_k |X_k|^2 w_k, X_k = sum_j x_j e^{-2 pi i j k / n}.
template <typename T> T spectrum(const T *x, int n) {
  std::vector<std::complex<T>> X(n);
  const T Pi = T(3.14159265358979323846264338327950288L);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      X[k] += x[j] * std::exp(std::complex<T>(0, -2 * Pi * j * k / n));
  T power = 0;
  for (int k = 0; k < n; ++k)
    power += std::norm(X[k]) * T(k + 1) / (std::abs(X[k]) + T(1));
  return power;
}

static long double mixedAt(const long double *v) {
  return mixed(v[0], v[1], v[2]);
}
static long double spectrumAt(const long double *v) {
  return spectrum(v, 5);
}

struct G3 {
  double da, db, dc;
};
struct G3f {
  float da, db, dc;
};

int main() {
  const double pts[][3] = {{0.3, -0.7, 1.1}, {1.2, 0.5, -0.6}};
  for (const auto &pt : pts) {
    long double p[] = {pt[0], pt[1], pt[2]};
    G3 g = adjoint::autodiff<G3>(mixed<double>, pt[0], pt[1], pt[2]);
    long double got[] = {g.da, g.db, g.dc};
    gc_grad("mixed<double>", mixedAt, 3, p, got, GC_TOL_DOUBLE);

    long double pf[] = {(float)pt[0], (float)pt[1], (float)pt[2]};
    G3f f = adjoint::autodiff<G3f>(mixed<float>, (float)pt[0], (float)pt[1],
                                   (float)pt[2]);
    long double gotf[] = {f.da, f.db, f.dc};
    gc_grad("mixed<float>", mixedAt, 3, pf, gotf, GC_TOL_FLOAT);
  }

  double x[5] = {0.4, -1.2, 0.7, 2.1, -0.3}, dx[5] = {0, 0, 0, 0, 0};
  adjoint::autodiff<void>(spectrum<double>, x, dx, 5);
  long double px[5], gotx[5];
  for (int i = 0; i != 5; ++i) {
    px[i] = x[i];
    gotx[i] = dx[i];
  }
  gc_grad("spectrum", spectrumAt, 5, px, gotx, GC_TOL_DOUBLE);
  return gc_finish();
}
