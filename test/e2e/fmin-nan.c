// fmin/fmax return the other operand when one is NaN; the derivative must
// follow the operand actually returned (closed form: 1 for it, 0 for NaN).
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
#include <math.h>
#include <stdio.h>

typedef struct { double dx, dy; } Grad;
Grad __enzyme_autodiff(void *, ...);

double lo(double x, double y) { return 3.0 * fmin(x, y); }
double hi(double x, double y) { return 3.0 * fmax(x, y); }

static int check(const char *What, Grad G, double Dx, double Dy) {
  if (G.dx == Dx && G.dy == Dy)
    return 0;
  printf("%s: got (%g, %g), expected (%g, %g)\n", What, G.dx, G.dy, Dx, Dy);
  return 1;
}

int main(void) {
  int Failures = 0;
  Failures += check("fmin(NaN, 2)", __enzyme_autodiff((void *)lo, NAN, 2.0), 0, 3);
  Failures += check("fmin(2, NaN)", __enzyme_autodiff((void *)lo, 2.0, NAN), 3, 0);
  Failures += check("fmin(1, 2)", __enzyme_autodiff((void *)lo, 1.0, 2.0), 3, 0);
  Failures += check("fmin(2, 1)", __enzyme_autodiff((void *)lo, 2.0, 1.0), 0, 3);
  Failures += check("fmax(NaN, 2)", __enzyme_autodiff((void *)hi, NAN, 2.0), 0, 3);
  Failures += check("fmax(2, NaN)", __enzyme_autodiff((void *)hi, 2.0, NAN), 3, 0);
  Failures += check("fmax(1, 2)", __enzyme_autodiff((void *)hi, 1.0, 2.0), 0, 3);
  Failures += check("fmax(2, 1)", __enzyme_autodiff((void *)hi, 2.0, 1.0), 3, 0);
  return Failures != 0;
}
