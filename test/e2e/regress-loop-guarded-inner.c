// Found by fuzzing: the cache of an inner loop is sized before the nest
// from the inner trip count, computed where the inner loop's guard has not
// been tested. With n = 1 the inner loop `j < n - 1` never runs, and its
// count (n - 2, unsigned) is huge: the gradient asked malloc for terabytes
// (ASan aborts). Such counts no longer size the cache; it grows instead.
// Also: pow(x, 3) under -ffast-math becomes llvm.powi, vectorized with a
// scalar exponent, whose rule must broadcast it (it crashed the plugin).
// References: closed forms.
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O3 -march=x86-64-v3 -ffast-math %s -o %tv -lm && %tv
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

// The inner recurrence t = sin(t) * x[j] is cached per inner iteration.
double nest(double *x, int n) {
  double s = 0;
  for (int i = 0; i < 12; i++) {
    double t = x[0];
    for (int j = 0; j < n - 1; j++)
      t = sin(t) * x[j + 1];
    s += t;
  }
  return s;
}
double cubes(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += pow(x[i], 3);
  return s;
}

static int Failures;
static void expect(const char *what, double got, double want) {
  if (fabs(got - want) <= 1e-12 * (1 + fabs(want)))
    return;
  printf("%s: got %.17g, expected %.17g\n", what, got, want);
  ++Failures;
}

int main(void) {
  // n = 1: the inner loop never runs; s = 12 x[0].
  double x[2] = {0.5, 2.0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)nest, enzyme_dup, x, dx, enzyme_const, 1);
  expect("nest n=1 dx0", dx[0], 12);
  expect("nest n=1 dx1", dx[1], 0);
  // n = 2: t = sin(x0) x1, s = 12 t.
  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)nest, enzyme_dup, x, dx, enzyme_const, 2);
  expect("nest n=2 dx0", dx[0], 12 * cos(x[0]) * x[1]);
  expect("nest n=2 dx1", dx[1], 12 * sin(x[0]));

  double c[7] = {0.1, 0.2, 0.3, -0.4, 0.5, 1.5, -2}, dc[7] = {0};
  __enzyme_autodiff((void *)cubes, enzyme_dup, c, dc, enzyme_const, 7);
  for (int i = 0; i < 7; i++)
    expect("cubes", dc[i], 3 * c[i] * c[i]);
  return Failures != 0;
}
