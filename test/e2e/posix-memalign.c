// posix_memalign inside the differentiated function: the block it returns
// through its out-parameter gets a zeroed shadow like any heap block, freed
// with it. References: finite differences of the same C code; ASan/LSan
// check the shadow block is freed.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

void __enzyme_autodiff(void *, ...);

double aligned(const double *x) {
  double *b;
  if (posix_memalign((void **)&b, 64, 4 * sizeof(double)) != 0)
    return 0;
  b[0] = x[0] * x[1];
  b[1] = exp(x[1]);
  double r = b[0] * b[1] + b[0];
  free(b);
  return r;
}
static long double aligned_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return aligned(x);
}

int main(void) {
  double x[2] = {0.3, 0.8}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)aligned, x, dx);
  gc_grad("aligned", aligned_at, 2, (long double[]){0.3, 0.8},
          (long double[]){dx[0], dx[1]}, GC_TOL_DOUBLE);
  return gc_finish();
}
