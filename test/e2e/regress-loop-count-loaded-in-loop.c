// Regression: a loop whose count is loaded in its header (the size of a
// span, end - begin, read through a pointer at every iteration, as -O0
// code of std::vector::size() does). SCEV only bounds such a count by its
// value range; the cache array was sized with that bound plus one, which
// wrapped around to zero bytes, and the loop wrote past it (the sanitizer
// reported a heap-buffer-overflow). The array now grows as the loop runs.
// Reference: closed form.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O0 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stddef.h>

void __enzyme_autodiff(void *, ...);

typedef struct {
  double *begin, *end;
} Span;

/* (sum_i w_i x_i)^2 */
double dot(const Span *w, const double *x) {
  double r = 0;
  for (size_t i = 0; i < (size_t)(w->end - w->begin); ++i)
    r += w->begin[i] * x[i];
  return r * r;
}

int main(void) {
  enum { N = 100 };
  double w[N], dw[N], x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    w[i] = 0.01 * (i % 9) - 0.03;
    x[i] = 0.02 * (i % 5) + 0.1;
    dw[i] = dx[i] = 0;
  }
  Span s = {w, w + N}, ds = {dw, dw + N};
  __enzyme_autodiff((void *)dot, &s, &ds, x, dx);
  long double r = 0;
  for (int i = 0; i < N; ++i)
    r += (long double)w[i] * x[i];
  for (int i = 0; i < N; ++i) {
    gc_expect("dot", "d/dw", dw[i], 2 * r * x[i], GC_TOL_DOUBLE);
    gc_expect("dot", "d/dx", dx[i], 2 * r * w[i], GC_TOL_DOUBLE);
  }
  return gc_finish();
}
