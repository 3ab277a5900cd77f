// A gradient struct whose fields are an array: every element is filled, in
// argument order (closed form: the partials of x + 2y + 3z).
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 && %t2
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
typedef struct { double d[3]; } G3;
typedef struct { double a; float b[2]; } Mixed;

double f(double x, double y, double z) { return x + 2 * y + 3 * z; }
double h(double x, float y, float z) { return x * 4 + y * 5 + z * 6; }

int main(void) {
  G3 g = ((G3(*)(void *, ...))__enzyme_autodiff)((void *)f, 1.0, 1.0, 1.0);
  Mixed m = ((Mixed(*)(void *, ...))__enzyme_autodiff)((void *)h, 1.0, 1.0f, 1.0f);
  int ok = g.d[0] == 1 && g.d[1] == 2 && g.d[2] == 3 && m.a == 4 &&
           m.b[0] == 5 && m.b[1] == 6;
  if (!ok)
    printf("got %g %g %g / %g %g %g\n", g.d[0], g.d[1], g.d[2], m.a, m.b[0], m.b[1]);
  return !ok;
}
