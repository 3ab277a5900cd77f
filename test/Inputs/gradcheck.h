/*===- gradcheck.h - Reference gradients for the end-to-end tests -*- C -*-===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Checks a gradient (gc_grad) or a forward-mode tangent (gc_tangent)         *|
|* computed by the plugin against central finite differences taken in long    *|
|* double, which never involve the plugin.                                    *|
|*                                                                            *|
|* A test describes the function to check as a gc_fn, which evaluates it at   *|
|* a point given in long double. For a double function this is usually just   *|
|* a call (the point is rounded to double, an error of about 1e-16/h); for    *|
|* float and _Float16 functions, write the body once as a macro and           *|
|* instantiate it in long double too, so that the reference does not suffer   *|
|* from the low precision.                                                    *|
|*                                                                            *|
|*   static double f(double x, double y) { return x * sin(y); }              *|
|*   static long double f_at(const long double *v) { return f(v[0], v[1]); } *|
|*   ...                                                                      *|
|*   gc_grad("f", f_at, 2, (long double[]){x, y},                             *|
|*           (long double[]){g.dx, g.dy}, GC_TOL_DOUBLE);                     *|
|*   return gc_finish();                                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ADJOINT_TEST_GRADCHECK_H
#define ADJOINT_TEST_GRADCHECK_H

#include <math.h>
#include <stdio.h>

/* The checks must stay exact when a test is built with -ffast-math: a NaN
   gradient must not compare as "close", and the Richardson step below must
   not be reassociated. */
#pragma float_control(precise, on, push)

/* Tolerances, relative with an absolute floor (see gc_close), chosen from
   the precision a gradient computed in each type can reach. */
#define GC_TOL_DOUBLE 1e-8L
#define GC_TOL_FLOAT 1e-5L
#define GC_TOL_HALF 1e-2L
#define GC_TOL_LDOUBLE 1e-11L

/* Evaluates the function under test at the point v. */
typedef long double (*gc_fn)(const long double *v);

static int gc_failures;

static int gc_close(long double got, long double want, long double tol) {
  long double err = fabsl(got - want);
  /* Written so that a NaN on either side fails. */
  return err <= tol * (1.0L + fabsl(want));
}

/* The derivative of f in component i at x, by central differences with
   one step of Richardson extrapolation: D(h) has error O(h^2), so
   (4 D(h/2) - D(h)) / 3 has error O(h^4). The step scales with |x[i]|;
   tests keep their points at least 2h away from kinks and jumps. */
static long double gc_fd(gc_fn f, const long double *x, int n, int i) {
  long double v[16];
  long double h = 1e-3L * (fabsl(x[i]) > 1.0L ? fabsl(x[i]) : 1.0L);
  long double d[2];
  for (int k = 0; k != 2; ++k, h /= 2) {
    for (int j = 0; j != n; ++j)
      v[j] = x[j];
    v[i] = x[i] + h;
    long double up = f(v);
    v[i] = x[i] - h;
    long double down = f(v);
    d[k] = (up - down) / (2 * h);
  }
  return (4 * d[1] - d[0]) / 3;
}

/* Compares one value with its expected value; `what` names the component. */
static void gc_expect(const char *test, const char *what, long double got,
                      long double want, long double tol) {
  if (gc_close(got, want, tol))
    return;
  ++gc_failures;
  fprintf(stderr, "FAIL %s, %s: expected %.17Lg, got %.17Lg\n", test, what,
          want, got);
}

/* Compares the gradient `got` of f at x (n components) with finite
   differences, component by component. */
static void gc_grad(const char *test, gc_fn f, int n, const long double *x,
                    const long double *got, long double tol) {
  for (int i = 0; i != n; ++i) {
    long double want = gc_fd(f, x, n, i);
    if (gc_close(got[i], want, tol))
      continue;
    ++gc_failures;
    fprintf(stderr, "FAIL %s, d/dx%d at (", test, i);
    for (int j = 0; j != n; ++j)
      fprintf(stderr, "%s%.17Lg", j ? ", " : "", x[j]);
    fprintf(stderr, "): expected %.17Lg (finite differences), got %.17Lg\n",
            want, got[i]);
  }
}

/* Compares a tangent `got` computed by forward mode, the derivative of f
   at x (n components) in the direction v, with the same combination of
   finite differences. */
static void gc_tangent(const char *test, gc_fn f, int n, const long double *x,
                       const long double *v, long double got,
                       long double tol) {
  long double want = 0;
  for (int i = 0; i != n; ++i)
    if (v[i] != 0)
      want += v[i] * gc_fd(f, x, n, i);
  if (gc_close(got, want, tol))
    return;
  ++gc_failures;
  fprintf(stderr, "FAIL %s, tangent at (", test);
  for (int j = 0; j != n; ++j)
    fprintf(stderr, "%s%.17Lg", j ? ", " : "", x[j]);
  fprintf(stderr, ") along (");
  for (int j = 0; j != n; ++j)
    fprintf(stderr, "%s%.17Lg", j ? ", " : "", v[j]);
  fprintf(stderr, "): expected %.17Lg (finite differences), got %.17Lg\n",
          want, got);
}

/* The exit status of main: nonzero when any check failed. */
static int gc_finish(void) {
  if (gc_failures)
    fprintf(stderr, "%d check(s) failed\n", gc_failures);
  return gc_failures != 0;
}

#pragma float_control(pop)

#endif /* ADJOINT_TEST_GRADCHECK_H */
