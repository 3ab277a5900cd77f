// Regression (found by randomized differential testing): a struct copy
// in a branch copies the int field through an integer load and store; the
// type analysis knows those bytes are an int, so that is no float copy.
// Closed form: f ends by restoring *s from its copy, so it is the identity
// on s and every shadow keeps its seed.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0 | FileCheck %s
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2 | FileCheck %s
// CHECK: 1 1 1 1 3
#include <stdio.h>
#include <string.h>
#include <math.h>
void __enzyme_autodiff(void *, ...);
typedef struct { double a; float b; int n; double c[2]; } S;
void f(S *s) {
  S t; memcpy(&t, s, sizeof t);
  if (t.b > s->a) {
    s->c[0] += cos(t.c[0]);
    *s = t;
  }
}
volatile int N = 3;
int main(void) {
  S s, ds;
  s.a = 1; s.b = 2; s.n = N; s.c[0] = 4; s.c[1] = 5;
  ds.a = 1; ds.b = 1; ds.n = 0; ds.c[0] = 1; ds.c[1] = 1;
  __enzyme_autodiff((void *)f, &s, &ds);
  printf("%g %g %g %g %d\n", ds.a, ds.b, ds.c[0], ds.c[1], s.n);
  return 0;
}
