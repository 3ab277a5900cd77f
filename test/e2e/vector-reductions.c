// Code that the optimizer turns into vector reductions (llvm.vector.reduce.
// fadd under -ffast-math) and floats packed into one double by the ABI (an
// 8-byte vector passed by value). References: closed forms.
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O2 -ffast-math %s -o %t2 && %t2
// RUN: %clang-adjoint -O3 -ffast-math -march=x86-64-v3 %s -o %t3 && %t3
// RUN: %clang -O2 -ffast-math -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR: llvm.vector.reduce.fadd
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
typedef struct { double da, db, dc, dd; } G4;
typedef float v2f __attribute__((vector_size(8)));

double sumsq(double a, double b, double c, double d) {
  return a * a + b * b + c * c + d * d;
}
double weighted(double a, double b, double c, double d) {
  return 1 * a + 2 * b + 3 * c + 4 * d + a * d;
}
float dotv(v2f v) { return v[0] * v[1]; }

static int check(const char *What, double Got, double Want) {
  if (Got == Want)
    return 0;
  printf("%s: got %g, expected %g\n", What, Got, Want);
  return 1;
}

int main(void) {
  int Failures = 0;
  G4 (*autodiff4)(void *, ...) = (G4(*)(void *, ...))__enzyme_autodiff;
  G4 g = autodiff4((void *)sumsq, 1.0, 2.0, 3.0, 4.0);
  Failures += check("sumsq a", g.da, 2) + check("sumsq b", g.db, 4) +
              check("sumsq c", g.dc, 6) + check("sumsq d", g.dd, 8);
  G4 w = autodiff4((void *)weighted, 1.0, 2.0, 3.0, 4.0);
  Failures += check("weighted a", w.da, 1 + 4) + check("weighted b", w.db, 2) +
              check("weighted c", w.dc, 3) + check("weighted d", w.dd, 4 + 1);
  v2f v = {2, 3};
  v2f dv = ((v2f(*)(void *, ...))__enzyme_autodiff)((void *)dotv, v);
  Failures += check("dotv 0", dv[0], 3) + check("dotv 1", dv[1], 2);
  return Failures != 0;
}
