// Regression: a matrix kept as heap rows whose addresses live in another
// heap block (what a std::vector<std::vector<double>> is). The rows are
// written through pointers loaded back from that block, so activity must
// give the rows, the pointers to them and the block holding those pointers
// shadows (it reported "a pointer into memory that holds derivatives is
// derived from the result of a 'getelementptr', which has no shadow"), and
// the shadow of each row must be freed, as the row is, through a pointer
// loaded from the block (the sanitizer reported the row shadows leaked).
// Reference: closed form.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O0 -fsanitize=address %s -o %ta0 -lm && %ta0
// RUN: %clang-adjoint -O2 -fsanitize=address %s -o %ta2 -lm && %ta2
#include "gradcheck.h"
#include <stdlib.h>

void __enzyme_autodiff(void *, ...);

/* (sum_i x_i^2)^2, through m[i][j] = x_i x_j. */
double rows(const double *x, int n) {
  double **m = malloc(n * sizeof(double *));
  for (int i = 0; i < n; ++i)
    m[i] = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[i][j] = x[i] * x[j];
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += m[i][j] * m[i][j];
  for (int i = 0; i < n; ++i)
    free(m[i]);
  free(m);
  return s;
}

int main(void) {
  double x[3] = {0.1, -0.2, 0.3}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)rows, x, dx, 3);
  long double q = 0;
  for (int i = 0; i < 3; ++i)
    q += (long double)x[i] * x[i];
  for (int i = 0; i < 3; ++i)
    gc_expect("rows", "d/dx", dx[i], 4 * x[i] * q, GC_TOL_DOUBLE);
  return gc_finish();
}
