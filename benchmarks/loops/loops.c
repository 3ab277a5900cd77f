/*===- loops.c - Gradient vs hand-written gradient on loops ---------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Times, in one run, the primal, the gradient from Adjoint and a gradient    *|
|* written by hand of three kinds of loops: a reduction (the sum of squares   *|
|* of 2^16 doubles), an explicit Euler ODE integration of 10^5 steps with     *|
|* the state updated in place (the reverse needs every step's state; the      *|
|* hand-written adjoint keeps them on a tape it mallocs), and a 2-deep nest   *|
|* (the sum of the squares of y = A x, n = 256, A constant or active). Prints *|
|* the ratios gradient/primal, hand-written/primal and Adjoint/hand-written   *|
|* (medians of several repeats); timings are never asserted. Before timing,   *|
|* the two gradients must agree. Shadows are zeroed before every gradient,    *|
|* as a user would, and that is timed with both gradients.                    *|
\*===----------------------------------------------------------------------===*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

/* Keeps calls to functions that only read memory from being hoisted out of
   the timing loops. */
#define BARRIER() __asm__ volatile("" : : : "memory")

/*===-- (a) A reduction ---------------------------------------------------===*/

__attribute__((noinline)) double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

__attribute__((noinline)) void sumsq_grad_adjoint(const double *x, double *dx,
                                                  int n) {
  __enzyme_autodiff((void *)sumsq, x, dx, enzyme_const, n);
}

__attribute__((noinline)) void sumsq_grad_by_hand(const double *x, double *dx,
                                                  int n) {
  for (int i = 0; i < n; ++i)
    dx[i] += 2 * x[i];
}

/*===-- (b) An explicit Euler ODE loop, state in place --------------------===*/

/* An SIRS epidemic with saturating incidence b S I / (1 + a I), recovery g
   and waning immunity w; s = {S, I, R} is updated in place, p = {b, a, g, w}.
   Returns the integral of I plus R S at the end. */
__attribute__((noinline)) double sirs(double *s, const double *p, int steps,
                                      double dt) {
  double J = 0;
  for (int k = 0; k < steps; ++k) {
    double S = s[0], I = s[1], R = s[2];
    double inc = p[0] * S * I / (1 + p[1] * I);
    J += dt * I;
    s[0] = S + dt * (p[3] * R - inc);
    s[1] = I + dt * (inc - p[2] * I);
    s[2] = R + dt * (p[2] * I - p[3] * R);
  }
  return J + s[2] * s[0];
}

__attribute__((noinline)) void sirs_grad_adjoint(double *s, double *ds,
                                                 const double *p, double *dp,
                                                 int steps, double dt) {
  __enzyme_autodiff((void *)sirs, enzyme_dup, s, ds, enzyme_dup, p, dp,
                    enzyme_const, steps, enzyme_const, dt);
}

/* The adjoint written by hand: a forward sweep storing the state before
   each step on a tape, then a backward sweep. Leaves the final state in s,
   like the primal. */
__attribute__((noinline)) void sirs_grad_by_hand(double *s, double *ds,
                                                 const double *p, double *dp,
                                                 int steps, double dt) {
  double b = p[0], a = p[1], g = p[2], w = p[3];
  double *tape = malloc(3 * (size_t)(steps > 0 ? steps : 1) * sizeof *tape);
  double S = s[0], I = s[1], R = s[2];
  for (int k = 0; k < steps; ++k) {
    tape[3 * k] = S, tape[3 * k + 1] = I, tape[3 * k + 2] = R;
    double inc = b * S * I / (1 + a * I);
    double nS = S + dt * (w * R - inc);
    double nI = I + dt * (inc - g * I);
    R = R + dt * (g * I - w * R);
    S = nS, I = nI;
  }
  s[0] = S, s[1] = I, s[2] = R;
  /* The result J + R S: its adjoint is 1. */
  double bS = R, bI = 0, bR = S, bb = 0, ba = 0, bg = 0, bw = 0;
  for (int k = steps - 1; k >= 0; --k) {
    S = tape[3 * k], I = tape[3 * k + 1], R = tape[3 * k + 2];
    double q = 1 / (1 + a * I), binc = dt * (bI - bS);
    double nbS = bS + binc * b * I * q;
    double nbI = bI + binc * b * S * q * q + dt * (1 + g * (bR - bI));
    double nbR = bR + dt * w * (bS - bR);
    bb += binc * S * I * q;
    ba -= binc * b * S * I * I * q * q;
    bg += dt * I * (bR - bI);
    bw += dt * R * (bS - bR);
    bS = nbS, bI = nbI, bR = nbR;
  }
  free(tape);
  ds[0] += bS, ds[1] += bI, ds[2] += bR;
  dp[0] += bb, dp[1] += ba, dp[2] += bg, dp[3] += bw;
}

/*===-- (c) A 2-deep nest: sum of the squares of y = A x ------------------===*/

__attribute__((noinline)) double matvec_sq(const double *A, const double *x,
                                           int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double y = 0;
    for (int j = 0; j < n; ++j)
      y += A[i * n + j] * x[j];
    s += y * y;
  }
  return s;
}

__attribute__((noinline)) void
matvec_grad_adjoint_x(const double *A, const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)matvec_sq, enzyme_const, A, enzyme_dup, x, dx,
                    enzyme_const, n);
}

__attribute__((noinline)) void matvec_grad_adjoint_Ax(const double *A,
                                                      double *dA,
                                                      const double *x,
                                                      double *dx, int n) {
  __enzyme_autodiff((void *)matvec_sq, enzyme_dup, A, dA, enzyme_dup, x, dx,
                    enzyme_const, n);
}

/* By hand: y_i on the fly, then the row's contribution 2 y_i A_i. to dx
   (and 2 y_i x to the row of dA). */
__attribute__((noinline)) void
matvec_grad_by_hand_x(const double *A, const double *x, double *dx, int n) {
  for (int i = 0; i < n; ++i) {
    const double *a = A + (size_t)i * n;
    double y = 0;
    for (int j = 0; j < n; ++j)
      y += a[j] * x[j];
    double by = 2 * y;
    for (int j = 0; j < n; ++j)
      dx[j] += by * a[j];
  }
}

__attribute__((noinline)) void matvec_grad_by_hand_Ax(const double *A,
                                                      double *dA,
                                                      const double *x,
                                                      double *dx, int n) {
  for (int i = 0; i < n; ++i) {
    const double *a = A + (size_t)i * n;
    double *da = dA + (size_t)i * n;
    double y = 0;
    for (int j = 0; j < n; ++j)
      y += a[j] * x[j];
    double by = 2 * y;
    for (int j = 0; j < n; ++j) {
      dx[j] += by * a[j];
      da[j] += by * x[j];
    }
  }
}

/*===-- Timing ------------------------------------------------------------===*/

/* Sizes, and calls per timing, of (a), (b) and (c). */
enum { Repeats = 7 };
enum { RedN = 1 << 16, RedCalls = 300 };
enum { OdeSteps = 100000, OdeCalls = 12 };
enum { MatN = 256, MatCalls = 150 };
static const double OdeDt = 1e-3; /* up to t = 100 */
static const double S0[3] = {0.99, 0.01, 0.0}, P0[4] = {0.5, 0.2, 0.1, 0.01};

static double X[RedN], DX[RedN], HX[RedN];
static double A[MatN * MatN], DA[MatN * MatN], HA[MatN * MatN];
static double V[MatN], DV[MatN], HV[MatN];
static volatile double Sink;

static double seconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
}

static int compareDoubles(const void *L, const void *R) {
  double U = *(const double *)L, W = *(const double *)R;
  return (U > W) - (U < W);
}

static double median(double *Vs) {
  qsort(Vs, Repeats, sizeof *Vs, compareDoubles);
  return Vs[Repeats / 2];
}

/* Relative agreement of the two gradients, component by component. */
static int agree(const char *What, const double *Ad, const double *Hd, int N) {
  for (int I = 0; I < N; ++I)
    if (!(fabs(Ad[I] - Hd[I]) <= 1e-10 * fabs(Hd[I]))) {
      printf("%s: gradients disagree at %d: %.17g (Adjoint) vs %.17g "
             "(hand-written)\n",
             What, I, Ad[I], Hd[I]);
      return 0;
    }
  return 1;
}

static void report(const char *What, double *Adjoint, double *Hand,
                   double *Versus, const char *Size) {
  printf("%s: gradient/primal = %.2f, hand-written/primal = %.2f, "
         "Adjoint/hand-written = %.2f  (median of %d runs, %s)\n",
         What, median(Adjoint), median(Hand), median(Versus), Repeats, Size);
}

/* (a) */
static double timeSumsqPrimal(void) {
  double T0 = seconds(), Sum = 0;
  for (int C = 0; C < RedCalls; ++C) {
    BARRIER();
    Sum += sumsq(X, RedN);
  }
  Sink = Sum;
  return seconds() - T0;
}

static double timeSumsqGradient(void (*G)(const double *, double *, int)) {
  double T0 = seconds(), Sum = 0;
  for (int C = 0; C < RedCalls; ++C) {
    memset(DX, 0, sizeof DX);
    G(X, DX, RedN);
    Sum += DX[C];
  }
  Sink = Sum;
  return seconds() - T0;
}

/* (b) The state is reset before each call: the primal overwrites it. */
static double timeSirsPrimal(void) {
  double T0 = seconds(), Sum = 0, S[3], P[4];
  memcpy(P, P0, sizeof P);
  for (int C = 0; C < OdeCalls; ++C) {
    memcpy(S, S0, sizeof S);
    BARRIER();
    Sum += sirs(S, P, OdeSteps, OdeDt);
  }
  Sink = Sum;
  return seconds() - T0;
}

typedef void (*SirsGrad)(double *, double *, const double *, double *, int,
                         double);
static double timeSirsGradient(SirsGrad G) {
  double T0 = seconds(), Sum = 0, S[3], P[4], DS[3], DP[4];
  memcpy(P, P0, sizeof P);
  for (int C = 0; C < OdeCalls; ++C) {
    memcpy(S, S0, sizeof S);
    memset(DS, 0, sizeof DS);
    memset(DP, 0, sizeof DP);
    G(S, DS, P, DP, OdeSteps, OdeDt);
    Sum += DS[0] + DP[0];
  }
  Sink = Sum;
  return seconds() - T0;
}

/* (c) */
static double timeMatvecPrimal(void) {
  double T0 = seconds(), Sum = 0;
  for (int C = 0; C < MatCalls; ++C) {
    BARRIER();
    Sum += matvec_sq(A, V, MatN);
  }
  Sink = Sum;
  return seconds() - T0;
}

static double timeMatvecGradientX(void (*G)(const double *, const double *,
                                            double *, int)) {
  double T0 = seconds(), Sum = 0;
  for (int C = 0; C < MatCalls; ++C) {
    memset(DV, 0, sizeof DV);
    G(A, V, DV, MatN);
    Sum += DV[C % MatN];
  }
  Sink = Sum;
  return seconds() - T0;
}

static double timeMatvecGradientAx(void (*G)(const double *, double *,
                                             const double *, double *, int)) {
  double T0 = seconds(), Sum = 0;
  for (int C = 0; C < MatCalls; ++C) {
    memset(DA, 0, sizeof DA);
    memset(DV, 0, sizeof DV);
    G(A, DA, V, DV, MatN);
    Sum += DV[C % MatN] + DA[C];
  }
  Sink = Sum;
  return seconds() - T0;
}

int main(void) {
  srand(42);
  for (int I = 0; I < RedN; ++I)
    X[I] = 2.0 * rand() / (double)RAND_MAX - 1.0;
  for (int I = 0; I < MatN * MatN; ++I)
    A[I] = (2.0 * rand() / (double)RAND_MAX - 1.0) / MatN;
  for (int I = 0; I < MatN; ++I)
    V[I] = 2.0 * rand() / (double)RAND_MAX - 1.0;

  /* The gradients must agree before anything is timed. */
  memset(DX, 0, sizeof DX);
  memset(HX, 0, sizeof HX);
  sumsq_grad_adjoint(X, DX, RedN);
  sumsq_grad_by_hand(X, HX, RedN);
  if (!agree("reduction", DX, HX, RedN))
    return 1;
  {
    double SA[3], SH[3], DS[2][3] = {{0}}, DP[2][4] = {{0}};
    memcpy(SA, S0, sizeof SA);
    memcpy(SH, S0, sizeof SH);
    sirs_grad_adjoint(SA, DS[0], P0, DP[0], OdeSteps, OdeDt);
    sirs_grad_by_hand(SH, DS[1], P0, DP[1], OdeSteps, OdeDt);
    if (!agree("ode final state", SA, SH, 3) ||
        !agree("ode d/dstate", DS[0], DS[1], 3) ||
        !agree("ode d/dparams", DP[0], DP[1], 4))
      return 1;
  }
  memset(DV, 0, sizeof DV);
  memset(HV, 0, sizeof HV);
  matvec_grad_adjoint_x(A, V, DV, MatN);
  matvec_grad_by_hand_x(A, V, HV, MatN);
  if (!agree("nest (A const) d/dx", DV, HV, MatN))
    return 1;
  memset(DV, 0, sizeof DV);
  memset(HV, 0, sizeof HV);
  memset(DA, 0, sizeof DA);
  memset(HA, 0, sizeof HA);
  matvec_grad_adjoint_Ax(A, DA, V, DV, MatN);
  matvec_grad_by_hand_Ax(A, HA, V, HV, MatN);
  if (!agree("nest (A dup) d/dx", DV, HV, MatN) ||
      !agree("nest (A dup) d/dA", DA, HA, MatN * MatN))
    return 1;

  double Adjoint[Repeats], Hand[Repeats], Versus[Repeats];
  char Size[64];
  for (int R = 0; R < Repeats; ++R) {
    double P = timeSumsqPrimal();
    double Ad = timeSumsqGradient(sumsq_grad_adjoint);
    double H = timeSumsqGradient(sumsq_grad_by_hand);
    Adjoint[R] = Ad / P, Hand[R] = H / P, Versus[R] = Ad / H;
  }
  snprintf(Size, sizeof Size, "n = %d", RedN);
  report("reduction", Adjoint, Hand, Versus, Size);

  for (int R = 0; R < Repeats; ++R) {
    double P = timeSirsPrimal();
    double Ad = timeSirsGradient(sirs_grad_adjoint);
    double H = timeSirsGradient(sirs_grad_by_hand);
    Adjoint[R] = Ad / P, Hand[R] = H / P, Versus[R] = Ad / H;
  }
  snprintf(Size, sizeof Size, "%d Euler steps, 3 states", OdeSteps);
  report("ode", Adjoint, Hand, Versus, Size);

  for (int R = 0; R < Repeats; ++R) {
    double P = timeMatvecPrimal();
    double Ad = timeMatvecGradientX(matvec_grad_adjoint_x);
    double H = timeMatvecGradientX(matvec_grad_by_hand_x);
    Adjoint[R] = Ad / P, Hand[R] = H / P, Versus[R] = Ad / H;
  }
  snprintf(Size, sizeof Size, "n = %d", MatN);
  report("nest, A const", Adjoint, Hand, Versus, Size);

  for (int R = 0; R < Repeats; ++R) {
    double P = timeMatvecPrimal();
    double Ad = timeMatvecGradientAx(matvec_grad_adjoint_Ax);
    double H = timeMatvecGradientAx(matvec_grad_by_hand_Ax);
    Adjoint[R] = Ad / P, Hand[R] = H / P, Versus[R] = Ad / H;
  }
  report("nest, A dup", Adjoint, Hand, Versus, Size);
  return 0;
}
