// The C side of cfi-descriptors.f90: describes arrays with C descriptors
// (CFI_establish, CFI_section), the shadow's with the same shape, and
// checks the gradient against finite differences.
#include "gradcheck.h"
#include <ISO_Fortran_binding.h>

#define N 8

double weighted(CFI_cdesc_t *x);
void weighted_grad(CFI_cdesc_t *x, CFI_cdesc_t *dx);

// A rank-1 descriptor of n contiguous doubles at base.
static void describe(CFI_cdesc_t *d, double *base, CFI_index_t n) {
  CFI_index_t extent[1] = {n};
  CFI_establish(d, base, CFI_attribute_other, CFI_type_double, sizeof(double),
                1, extent);
}

static double point[N];
static int stride;

// weighted at v, for the elements 0, stride, 2 stride, ... of point.
static long double weighted_at(const long double *v) {
  double x[N];
  int n = N / stride;
  for (int i = 0; i != n; ++i)
    x[i] = (double)v[i];
  CFI_CDESC_T(1) d;
  describe((CFI_cdesc_t *)&d, x, n);
  return weighted((CFI_cdesc_t *)&d);
}

static int check(const char *what, int step) {
  double x[N], dx[N];
  for (int i = 0; i != N; ++i) {
    x[i] = point[i];
    dx[i] = -7; // Elements outside the section must stay as they are.
  }
  stride = step;
  int n = N / step;
  CFI_CDESC_T(1) whole, shadow_whole, xd, dxd;
  describe((CFI_cdesc_t *)&whole, x, N);
  describe((CFI_cdesc_t *)&shadow_whole, dx, N);
  // Elements 1, 1 + step, ... (Fortran's x(1::step)); the shadow's section
  // is the same section of dx.
  CFI_index_t lower[1] = {0}, upper[1] = {N - 1}, strides[1] = {step};
  CFI_establish((CFI_cdesc_t *)&xd, NULL, CFI_attribute_other, CFI_type_double,
                sizeof(double), 1, NULL);
  CFI_establish((CFI_cdesc_t *)&dxd, NULL, CFI_attribute_other,
                CFI_type_double, sizeof(double), 1, NULL);
  CFI_section((CFI_cdesc_t *)&xd, (CFI_cdesc_t *)&whole, lower, upper, strides);
  CFI_section((CFI_cdesc_t *)&dxd, (CFI_cdesc_t *)&shadow_whole, lower, upper,
              strides);
  for (int i = 0; i != n; ++i)
    dx[i * step] = 0;
  weighted_grad((CFI_cdesc_t *)&xd, (CFI_cdesc_t *)&dxd);

  int before = gc_failures;
  long double at[N], got[N];
  for (int i = 0; i != n; ++i) {
    at[i] = x[i * step];
    got[i] = dx[i * step];
  }
  gc_grad(what, weighted_at, n, at, got, GC_TOL_DOUBLE);
  for (int i = 0; i != N; ++i)
    if (i % step != 0)
      gc_expect(what, "element outside the section", dx[i], -7, 0);
  if (gc_failures == before)
    printf("%s ok\n", what);
  return 0;
}

int main(void) {
  for (int i = 0; i != N; ++i)
    point[i] = 0.3 * i - 1.05 + 0.02 * i * i;
  check("whole array", 1);
  check("section", 2);
  return gc_finish();
}
