// Gradient structs in the shapes the x86-64 ABI returns them: two floats
// through a cast entry point that the optimizer rewrites into a double
// reinterpreted as <2 x float>, three _Float16 as <4 x half> with a padding
// lane. Closed-form references.
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 && %t2
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
typedef struct { float dx, dy; } F2;
typedef struct { _Float16 dx, dy, dz; } H3;

float f(float x, float y) { return x * y; }
_Float16 h(_Float16 x, _Float16 y, _Float16 z) { return x + 2 * y + 3 * z; }

int main(void) {
  F2 g = ((F2(*)(void *, ...))__enzyme_autodiff)((void *)f, 2.0f, 3.0f);
  _Float16 one = 1;
  H3 k = ((H3(*)(void *, ...))__enzyme_autodiff)((void *)h, one, one, one);
  int ok = g.dx == 3 && g.dy == 2 && k.dx == 1 && k.dy == 2 && k.dz == 3;
  if (!ok)
    printf("got %g %g / %g %g %g\n", g.dx, g.dy, (double)k.dx, (double)k.dy,
           (double)k.dz);
  return !ok;
}
