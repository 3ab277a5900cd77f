// Regression (found by randomized differential testing): at -O0 the
// caller indexes the array field c at run time, which the type analysis
// took for "a double every 8 bytes", colliding with the float field and
// making the struct copy in f undecided. Closed form: f sets a = a * c[1],
// so with seed d_a = 1 the gradient is (c[1], 0, 0, a) for (a, b, c0, c1).
// RUN: %clang-adjoint -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang-adjoint -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK: 5 0 0 1
#include <stdio.h>
#include <string.h>
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
typedef struct { double a; float b; int n; double c[2]; } S;   /* 32 bytes, no padding */
void f(S *s) {
  S t = *s;
  t.a = t.a * t.c[1];
  *s = t;
}
int main(int argc, char **argv) {
  S s = {1, 2, 3, {4, 5}}, ds = {1, 0, 0, {0, 0}};
  S s2 = s;
  __enzyme_autodiff((void *)f, &s, &ds);
  printf("%g %g %g %g\n", ds.a, ds.b, ds.c[0], ds.c[1]);   /* expect 5 0 0 1 */
  printf("%g\n", s2.c[argc - 1]);
  return 0;
}
