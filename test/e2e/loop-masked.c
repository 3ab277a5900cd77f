// Conditional loops that the AVX2 vectorizer turns into masked loads and
// stores (llvm.masked.load / llvm.masked.store): the reverse reads, adds
// to and consumes the shadows of exactly the lanes the forward pass
// touched. References: closed forms, lane by lane.
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O3 -march=x86-64-v3 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang -O3 -march=x86-64-v3 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-DAG: llvm.masked.store
// IR-DAG: llvm.masked.load
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

enum { N = 37 }; // not a multiple of the vector width: a remainder loop too

// y[i] = x[i]^2 where x[i] > 0.5: a masked store; y elsewhere untouched.
void square_where(double *restrict y, const double *restrict x, int n) {
  for (int i = 0; i < n; i++)
    if (x[i] > 0.5)
      y[i] = x[i] * x[i];
}
// z[i] read only where c[i] > 0: a masked load.
void select_where(double *restrict y, const double *restrict c,
                  const double *restrict z, int n) {
  for (int i = 0; i < n; i++)
    y[i] = c[i] > 0 ? 3 * z[i] * c[i] : c[i];
}

static int Failures;
static void expect(const char *what, int i, double got, double want) {
  if (got == want)
    return;
  printf("%s[%d]: got %g, expected %g\n", what, i, got, want);
  ++Failures;
}

int main(void) {
  double x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    x[i] = (i % 3) * 0.4 + 0.1; // 0.1, 0.5, 0.9: only i % 3 == 2 passes
    dx[i] = 0.25;               // accumulates
    y[i] = -1;
    dy[i] = 1 + i;              // seeds of the outputs
  }
  __enzyme_autodiff((void *)square_where, enzyme_dup, y, dy, enzyme_dup, x,
                    dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int written = x[i] > 0.5;
    expect("square_where dx", i, dx[i],
           0.25 + (written ? 2 * x[i] * (1 + i) : 0));
    // Written lanes consume their seeds; the others keep them.
    expect("square_where dy", i, dy[i], written ? 0 : 1 + i);
    expect("square_where y", i, y[i], written ? x[i] * x[i] : -1);
  }

  double c[N], dc[N], z[N], dz[N];
  for (int i = 0; i < N; i++) {
    c[i] = (i % 4 == 1 ? -1.0 : 1.0) * (0.5 + 0.125 * i);
    z[i] = 0.25 * i - 2;
    dc[i] = dz[i] = 0;
    dy[i] = 1 + i;
  }
  __enzyme_autodiff((void *)select_where, enzyme_dup, y, dy, enzyme_dup, c,
                    dc, enzyme_dup, z, dz, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int taken = c[i] > 0;
    expect("select_where dz", i, dz[i], taken ? 3 * c[i] * (1 + i) : 0);
    expect("select_where dc", i, dc[i], taken ? 3 * z[i] * (1 + i) : 1 + i);
    expect("select_where dy", i, dy[i], 0);
  }
  return Failures != 0;
}
