// Zeroing memory is often compiled to integer stores (memset of 8 bytes
// becomes `store i64 0` at -O2); an overwritten location's shadow must be
// consumed whatever the type of the store. Closed form: c[0] is zeroed,
// then c[0] = x * x, so the entry seed of c[0] (5) does not reach x and
// dc[0] ends at 0; dx = seed(c[1]) * 2x.
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 && %t3
#include <stdio.h>
#include <string.h>

void __enzyme_autodiff(void *, ...);

void f(double *c, const double *x) {
  memset(c, 0, sizeof(double));
  c[1] = x[0] * x[0];
}

int main(void) {
  double c[2] = {1, 1}, dc[2] = {5, 3}, x[1] = {0.5}, dx[1] = {0};
  __enzyme_autodiff((void *)f, c, dc, x, dx);
  int ok = dc[0] == 0 && dc[1] == 0 && dx[0] == 3 * 2 * 0.5 && c[0] == 0;
  if (!ok)
    printf("dc = (%g, %g), dx = %g, c[0] = %g\n", dc[0], dc[1], dx[0], c[0]);
  return !ok;
}
