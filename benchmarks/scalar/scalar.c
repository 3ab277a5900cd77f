/*===- scalar.c - Gradient vs hand-written gradient on scalar code --------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Times, in one run, the primal of a branchy scalar function with libm      *|
|* calls, its gradient from Adjoint, and a gradient written by hand, over a   *|
|* sweep of inputs. Prints the ratios gradient/primal and Adjoint/hand-       *|
|* written (medians of several repeats); timings are never asserted. Before   *|
|* timing, the two gradients must agree.                                      *|
\*===----------------------------------------------------------------------===*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern int enzyme_const;
typedef struct { double dx, dy; } Grad;
Grad __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double f(double x, double y, int mode) {
  double r = x * y + sin(x) / (1.0 + y * y);
  if (r > 1.0)
    r = log(r) * exp(-y);
  else
    r = r * r * r + tanh(x);
  return mode ? r : -r;
}

/* The gradient of f written by hand, sharing subexpressions as a careful
   programmer would. */
__attribute__((noinline)) Grad f_grad_by_hand(double x, double y, int mode) {
  double s = sin(x), q = 1.0 + y * y;
  double r = x * y + s / q;
  double drdx = y + cos(x) / q, drdy = x - s * 2 * y / (q * q);
  double sign = mode ? 1 : -1;
  Grad g;
  if (r > 1.0) {
    double e = exp(-y), l = log(r);
    g.dx = sign * e / r * drdx;
    g.dy = sign * (e / r * drdy - l * e);
  } else {
    double t = tanh(x);
    g.dx = sign * (3 * r * r * drdx + (1 - t * t));
    g.dy = sign * 3 * r * r * drdy;
  }
  return g;
}

__attribute__((noinline)) Grad f_grad_adjoint(double x, double y, int mode) {
  return __enzyme_autodiff((void *)f, x, y, enzyme_const, mode);
}

enum { Points = 1 << 20, Repeats = 7 };
static double Xs[Points], Ys[Points];
static volatile double Sink;

static double seconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
}

static double timePrimal(void) {
  double T0 = seconds(), Sum = 0;
  for (int I = 0; I < Points; ++I)
    Sum += f(Xs[I], Ys[I], 1);
  Sink = Sum;
  return seconds() - T0;
}

static double timeGradient(Grad (*G)(double, double, int)) {
  double T0 = seconds(), Sum = 0;
  for (int I = 0; I < Points; ++I) {
    Grad D = G(Xs[I], Ys[I], 1);
    Sum += D.dx + D.dy;
  }
  Sink = Sum;
  return seconds() - T0;
}

static int compareDoubles(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return (X > Y) - (X < Y);
}

static double median(double *V) {
  qsort(V, Repeats, sizeof *V, compareDoubles);
  return V[Repeats / 2];
}

int main(void) {
  srand(42);
  for (int I = 0; I < Points; ++I) {
    Xs[I] = 0.1 + 1.5 * rand() / (double)RAND_MAX;
    Ys[I] = 0.1 + 1.5 * rand() / (double)RAND_MAX;
  }
  for (int I = 0; I < Points; I += 997) {
    Grad A = f_grad_adjoint(Xs[I], Ys[I], 1), H = f_grad_by_hand(Xs[I], Ys[I], 1);
    if (fabs(A.dx - H.dx) > 1e-12 * (1 + fabs(H.dx)) ||
        fabs(A.dy - H.dy) > 1e-12 * (1 + fabs(H.dy))) {
      printf("scalar: gradients disagree at (%g, %g): (%g, %g) vs (%g, %g)\n",
             Xs[I], Ys[I], A.dx, A.dy, H.dx, H.dy);
      return 1;
    }
  }
  double Adjoint[Repeats], Hand[Repeats], Versus[Repeats];
  for (int R = 0; R < Repeats; ++R) {
    double P = timePrimal();
    double A = timeGradient(f_grad_adjoint);
    double H = timeGradient(f_grad_by_hand);
    Adjoint[R] = A / P;
    Hand[R] = H / P;
    Versus[R] = A / H;
  }
  printf("scalar: gradient/primal  adjoint %.2f  hand-written %.2f  "
         "adjoint/hand-written %.2f  (median of %d runs, %d points)\n",
         median(Adjoint), median(Hand), median(Versus), Repeats, Points);
  return 0;
}
