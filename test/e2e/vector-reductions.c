// Code that the optimizer turns into vector reductions (llvm.vector.reduce.
// fadd and fmul under -ffast-math; fmax and fmin from clang's reduction
// builtins) and floats packed into one double by the ABI (an 8-byte vector
// passed by value). References: closed forms.
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O2 -ffast-math %s -o %t2 && %t2
// RUN: %clang-adjoint -O3 -ffast-math -march=x86-64-v3 %s -o %t3 && %t3
// RUN: %clang -O2 -ffast-math -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-DAG: llvm.vector.reduce.fadd
// IR-DAG: llvm.vector.reduce.fmul
// IR-DAG: llvm.vector.reduce.fmax
// IR-DAG: llvm.vector.reduce.fmin
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
typedef double v4d __attribute__((ext_vector_type(4)));
double vmax(double a, double b, double c, double d) {
  v4d v = {a * a, b, c, d};
  return __builtin_reduce_max(v);
}
double vmin(double a, double b, double c, double d) {
  v4d v = {a * a, b, c, d};
  return __builtin_reduce_min(v);
}
// A product of 8 factors: its lanes' derivatives are the products of the
// other lanes, which must stay exact when a factor is zero.
double prod8(double *x) {
  double p = 1;
  for (int i = 0; i < 8; i++)
    p *= x[i];
  return p;
}

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
  G4 mx = autodiff4((void *)vmax, 3.0, 2.0, 5.0, 4.0); // max is b*b = 9
  Failures += check("vmax a", mx.da, 6) + check("vmax b", mx.db, 0) +
              check("vmax c", mx.dc, 0) + check("vmax d", mx.dd, 0);
  G4 mn = autodiff4((void *)vmin, 3.0, 2.0, 5.0, 4.0); // min is b = 2
  Failures += check("vmin a", mn.da, 0) + check("vmin b", mn.db, 1) +
              check("vmin c", mn.dc, 0) + check("vmin d", mn.dd, 0);
  // A three-way tie (a*a = b = c = 4): only the first lane takes the
  // derivative, as fmax(x, x) = x has derivative 1 (all three: 2a + 1 + 1).
  G4 tie = autodiff4((void *)vmax, 2.0, 4.0, 4.0, 1.0);
  Failures += check("tie sum", tie.da + tie.db + tie.dc + tie.dd, 2 * 2.0);
  double x[8] = {1, 2, 3, 0.5, -1, 2, 1.5, 3}, dx[8] = {0};
  __enzyme_autodiff((void *)prod8, x, dx);
  double all = 1;
  for (int i = 0; i < 8; i++)
    all *= x[i];
  for (int i = 0; i < 8; i++)
    Failures += check("prod8", dx[i], all / x[i]);
  double z[8] = {1, 2, 0, 0.5, -1, 2, 1.5, 3}, dz[8] = {0};
  __enzyme_autodiff((void *)prod8, z, dz);
  Failures += check("prod8 zero lane", dz[2], 1 * 2 * 0.5 * -1 * 2 * 1.5 * 3);
  for (int i = 0; i < 8; i++)
    Failures += i != 2 && check("prod8 other lanes", dz[i], 0);
  return Failures != 0;
}
