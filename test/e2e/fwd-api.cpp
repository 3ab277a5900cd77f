// The forward-mode entry point as C++ programs reach it: declared as a
// template (its mangled name contains __enzyme_fwddiff), through the typed
// helper adjoint::fwddiff<R> of <adjoint/adjoint.h> (always inlined, so
// that it works at -O0 too), and through a local function-pointer
// variable, returning float, double and void. Closed forms.
// RUN: %clang-adjoint -x c++ -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -x c++ -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -x c++ -O3 -ffast-math %s -o %tf -lm && %tf
#include <adjoint/adjoint.h>
#include "gradcheck.h"

template <typename R, typename... A> R __enzyme_fwddiff(A...);

namespace geometry {
double area(double r, double h) { return 2 * M_PI * r * (r + h); }
float scaled(float x, int k) { return x * x * k; }
void velocity(const double *p, double t, double *v) {
  v[0] = p[0] * cos(t);
  v[1] = p[0] * sin(t) + p[1] * t;
}
} // namespace geometry

int main() {
  double r = 1.5, h = 2.0;
  /* d area = 2 pi ((2 r + h) dr + r dh) */
  double want = 2 * M_PI * ((2 * r + h) * 1.0 + r * 0.5);
  gc_expect("template", "d area", __enzyme_fwddiff<double>(
                (void *)geometry::area, r, 1.0, h, 0.5), want, GC_TOL_DOUBLE);
  gc_expect("fwddiff<double>", "d area",
            adjoint::fwddiff<double>(geometry::area, r, 1.0, h, 0.5), want,
            GC_TOL_DOUBLE);
  gc_expect("fwddiff<float>", "d scaled",
            adjoint::fwddiff<float>(geometry::scaled, 3.0f, 1.0f,
                                    enzyme_const, 4),
            2 * 3.0f * 4, GC_TOL_FLOAT);
  double (*entry)(void *, ...) = __enzyme_fwddiff;
  gc_expect("pointer", "d area", entry((void *)geometry::area, r, 0.0, h, 1.0),
            2 * M_PI * r, GC_TOL_DOUBLE);
  double p[2] = {2, 3}, dp[2] = {1, 0}, v[2], dv[2] = {0, 0};
  adjoint::fwddiff<void>(geometry::velocity, p, dp, 0.5, 2.0, v, dv);
  gc_expect("fwddiff<void>", "dv0", dv[0], cos(0.5) - 2 * sin(0.5) * 2,
            GC_TOL_DOUBLE);
  gc_expect("fwddiff<void>", "dv1", dv[1], sin(0.5) + (2 * cos(0.5) + 3) * 2,
            GC_TOL_DOUBLE);
  return gc_finish();
}
