// Checks gradients of a function of the final state of ODE integrators
// with respect to the initial state and the parameters (enzyme_dup arrays,
// and an enzyme_out scalar): RK4 on Lotka-Volterra (local stage arrays
// overwritten in every step), explicit Euler on a damped driven pendulum
// updating the state in place, and explicit Euler on van der Pol with two
// scalar states. With -DBIG, van der Pol takes 10^7 steps (dt = 1e-7): the
// gradient is checked with a looser tolerance, and the peak memory after
// it (ru_maxrss) must stay below 2 GiB, about 8 k N bytes for k doubles
// kept per step (printed).
// References: long-double finite differences of the same C code (van der
// Pol: the same body instantiated in long double).
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 -DBIG %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
#include "gradcheck.h"
#include <sys/resource.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

/* Lotka-Volterra: x' = a x - b x y, y' = c x y - d y; p = {a, b, c, d}. */
static void lv(const double *s, const double *p, double *ds) {
  ds[0] = p[0] * s[0] - p[1] * s[0] * s[1];
  ds[1] = p[2] * s[0] * s[1] - p[3] * s[1];
}
double lv_rk4(const double *s0, const double *p, int steps, double dt) {
  double s[2] = {s0[0], s0[1]}, k1[2], k2[2], k3[2], k4[2], t[2];
  for (int n = 0; n < steps; ++n) {
    lv(s, p, k1);
    for (int i = 0; i < 2; ++i)
      t[i] = s[i] + 0.5 * dt * k1[i];
    lv(t, p, k2);
    for (int i = 0; i < 2; ++i)
      t[i] = s[i] + 0.5 * dt * k2[i];
    lv(t, p, k3);
    for (int i = 0; i < 2; ++i)
      t[i] = s[i] + dt * k3[i];
    lv(t, p, k4);
    for (int i = 0; i < 2; ++i)
      s[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return s[0] * s[0] + log(s[1]);
}
/* theta'' = -g sin(theta) - c theta' + A cos(w t) up to t = tend;
   s = {theta, theta'} is updated in place, p = {g, c, A, w}. Returns the
   energy. */
double pendulum(double *s, const double *p, int steps, double tend) {
  double dt = tend / (steps > 0 ? steps : 1);
  for (int n = 0; n < steps; ++n) {
    double th = s[0], om = s[1];
    s[0] = th + dt * om;
    s[1] = om + dt * (-p[0] * sin(th) - p[1] * om + p[2] * cos(p[3] * n * dt));
  }
  return p[0] * (1 - cos(s[0])) + 0.5 * s[1] * s[1];
}
/* Van der Pol: x' = y, y' = mu (1 - x^2) y - x. */
#define VDP_BODY(T)                                                            \
  T x = s0[0], y = s0[1];                                                      \
  for (long n = 0; n < steps; ++n) {                                           \
    T nx = x + dt * y;                                                         \
    y = y + dt * (mu * (1 - x * x) * y - x);                                   \
    x = nx;                                                                    \
  }                                                                            \
  return x * x + y;
double vdp(const double *s0, double mu, long steps, double dt) {
  VDP_BODY(double)
}
static long double vdp_l(const long double *s0, long double mu, long steps,
                         long double dt) {
  VDP_BODY(long double)
}

/* References: v = initial state, then parameters (pendulum: then tend). */
static int Steps;
static double Dt;
static long double lv_at(const long double *v) {
  double s[2] = {v[0], v[1]}, p[4] = {v[2], v[3], v[4], v[5]};
  return lv_rk4(s, p, Steps, Dt);
}
static long double pendulum_at(const long double *v) {
  double s[2] = {v[0], v[1]}, p[4] = {v[2], v[3], v[4], v[5]};
  return pendulum(s, p, Steps, v[6]);
}
static long double vdp_at(const long double *v) {
  return vdp_l(v, v[2], Steps, Dt);
}

static void check(const char *name, gc_fn f, int n, const double *x,
                  const double *g, long double tol) {
  long double lx[8], lg[8];
  for (int i = 0; i != n; ++i)
    lx[i] = x[i], lg[i] = g[i];
  gc_grad(name, f, n, lx, lg, tol);
}
#ifdef BIG
static long peak_kib(void) { // KiB on Linux
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}
#endif

int main(void) {
  const int steps[] = {0, 1, 1000};
  for (int t = 0; t != 3; ++t) {
    Steps = steps[t], Dt = 0.005; // up to t = 5, about one period
    double v[6] = {1.0, 0.8, 1.5, 1.0, 1.0, 3.0}, g[6] = {0};
    __enzyme_autodiff((void *)lv_rk4, enzyme_dup, v, g, enzyme_dup, v + 2,
                      g + 2, enzyme_const, Steps, enzyme_const, Dt);
    check("lv_rk4", lv_at, 6, v, g, GC_TOL_DOUBLE);
  }
  for (int t = 0; t != 3; ++t) {
    Steps = steps[t];
    double v[7] = {2.5, -0.4, 4.0, 0.3, 1.2, 2.0, 4.0}, g[7] = {0};
    double s[2] = {v[0], v[1]}; // overwritten: the final state
    g[6] = __enzyme_autodiff((void *)pendulum, s, g, v + 2, g + 2, Steps, v[6]);
    check("pendulum", pendulum_at, 7, v, g, GC_TOL_DOUBLE);
  }
  {
    Steps = 10000, Dt = 1e-4;
    double v[3] = {1.2, -0.5, 1.0}, g[3] = {0};
    g[2] = __enzyme_autodiff((void *)vdp, v, g, v[2], (long)Steps, enzyme_const,
                             Dt);
    check("vdp", vdp_at, 3, v, g, GC_TOL_DOUBLE);
  }
#ifdef BIG
  {
    /* 10^7 steps: the gradient keeps what each step needs in reverse. */
    Steps = 10000000, Dt = 1e-7;
    double v[3] = {1.2, -0.5, 1.0}, g[3] = {0};
    long before = peak_kib();
    g[2] = __enzyme_autodiff((void *)vdp, v, g, v[2], (long)Steps, enzyme_const,
                             Dt);
    long after = peak_kib();
    printf("vdp, 10^7 steps: peak RSS %ld KiB before, %ld KiB after "
           "(%.1f bytes per step)\n",
           before, after, (after - before) * 1024.0 / Steps);
    check("vdp 10^7", vdp_at, 3, v, g, 1e-6L);
    gc_expect("vdp 10^7", "peak RSS below 2 GiB", after < 2L << 20, 1, 0);
  }
#endif
  return gc_finish();
}
