// Regression (found by randomized differential testing): the type analysis
// of the caller followed its calls into the user functions, which took
// minutes at -O0. The program checks its gradients against long-double
// finite differences of a plain copy of the same code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

typedef struct { double a; float b; int n; double c[2]; double *p; } S_d;
typedef struct { long double a; long double b; int n; long double c[2]; long double *p; } S_l;


#define REAL double
#define FLT float
#define STRUCT S_d
#define H(n) n##_d
#define SIN sin
#define COS cos
#define EXP exp
#define LOG log
#define FABS fabs
#define SQRT sqrt
#define TANH tanh

static REAL H(h0)(REAL a, REAL b) { return (SIN(LOG(FABS(a) + 1.0)) - b); }
static REAL H(h1)(REAL a, REAL b) { return LOG(FABS(a) + 1.0); }
static void H(hw)(REAL *p, REAL v) {
  REAL o = p[0];
  if ((o > v)) p[0] = LOG(FABS(EXP(o * 0.25)) + 1.0); else p[0] = ((p[0] < 0.5 ? v : 0.25) * 2.0);
}
void f(REAL *x, REAL *out, const int *k, STRUCT *s) {
  s->c[1] = TANH((s->b + s->c[1]));
  REAL *pa1[2] = {&s->c[0], &s->c[1]};
  pa1[0][0] += x[((k[0]+2)&3)];
  REAL *p2 = pa1[(k[1]&1)];
  out[k[0]] += LOG(FABS(s->p[0]) + 1.0);
  s->p = out;
  s->p[k[0]] = (-H(h0)(LOG(FABS(x[1]) + 1.0), (x[2] * 0.75)));
  if (out[k[2]] < x[3]) {
    s->c[1] = LOG(FABS(x[k[1]]) + 1.0);
    out[k[0]] = ((s->b - s->a) * SQRT(s->a * s->a + 1.0));
    s->p = (H(h0)(s->c[0], s->a) > s->p[(3-k[2])]) ? s->p : out;
  }
  out[0] = SQRT(TANH(s->c[1]) * TANH(s->c[1]) + 1.0);
}

#undef REAL
#undef FLT
#undef STRUCT
#undef H
#undef SIN
#undef COS
#undef EXP
#undef LOG
#undef FABS
#undef SQRT
#undef TANH
#define REAL long double
#define FLT long double
#define STRUCT S_l
#define H(n) n##_l
#define SIN sinl
#define COS cosl
#define EXP expl
#define LOG logl
#define FABS fabsl
#define SQRT sqrtl
#define TANH tanhl

static REAL H(h0)(REAL a, REAL b) { return (SIN(LOG(FABS(a) + 1.0)) - b); }
static REAL H(h1)(REAL a, REAL b) { return LOG(FABS(a) + 1.0); }
static void H(hw)(REAL *p, REAL v) {
  REAL o = p[0];
  if ((o > v)) p[0] = LOG(FABS(EXP(o * 0.25)) + 1.0); else p[0] = ((p[0] < 0.5 ? v : 0.25) * 2.0);
}
void f_ld(REAL *x, REAL *out, const int *k, STRUCT *s) {
  s->c[1] = TANH((s->b + s->c[1]));
  REAL *pa1[2] = {&s->c[0], &s->c[1]};
  pa1[0][0] += x[((k[0]+2)&3)];
  REAL *p2 = pa1[(k[1]&1)];
  out[k[0]] += LOG(FABS(s->p[0]) + 1.0);
  s->p = out;
  s->p[k[0]] = (-H(h0)(LOG(FABS(x[1]) + 1.0), (x[2] * 0.75)));
  if (out[k[2]] < x[3]) {
    s->c[1] = LOG(FABS(x[k[1]]) + 1.0);
    out[k[0]] = ((s->b - s->a) * SQRT(s->a * s->a + 1.0));
    s->p = (H(h0)(s->c[0], s->a) > s->p[(3-k[2])]) ? s->p : out;
  }
  out[0] = SQRT(TANH(s->c[1]) * TANH(s->c[1]) + 1.0);
}

#define NX 4
#define NO 4
#define NY 4
#define NL (NX + NO + NY + 4)
static const int K[3] = {0, 1, 2};
static const double X0[NX] = {-1.123835, -0.251374, -0.264323, -0.163947}, O0[NO] = {-1.301216, -0.234850, -1.126663, -0.893250}, Y0[NY] = {0.476146, -0.761844, -0.617950, 0.860424};
static const double SA0 = -1.319926, SB0 = -0.311898, SC0[2] = {0.723995, -0.747893};
static const int SN0 = 2;
static const double DX0[NX] = {-0.602049, -1.690892, 1.417259, -1.307431}, DO0[NO] = {1.989950, 0.658111, 1.311093, 0.553843}, DY0[NY] = {-1.893269, 1.422989, 0.174809, 0.737843};
static const double DSA0 = 1.981093, DSB0 = -1.574184, DSC0[2] = {-0.792886, -0.945642};

typedef struct { long double x[NX], out[NO], y[NY]; S_l s; long double ret; } StL;

static long double *locL(StL *st, int i) {
  if (i < NX) return &st->x[i]; i -= NX;
  if (i < NO) return &st->out[i]; i -= NO;
  if (i < NY) return &st->y[i]; i -= NY;
  if (i == 0) return &st->s.a; if (i == 1) return &st->s.b; if (i == 2) return &st->s.c[0];
  return &st->s.c[1];
}
static const double seedOf(int i) {
  if (i < NX) return DX0[i]; i -= NX;
  if (i < NO) return DO0[i]; i -= NO;
  if (i < NY) return DY0[i]; i -= NY;
  if (i == 0) return DSA0; if (i == 1) return (float)DSB0; if (i == 2) return DSC0[0];
  return DSC0[1];
}
/* where does s.p point after the call? encode as base*16+offset */
static int whereL(StL *st, long double *p) {
  if (p >= st->x && p < st->x + NX) return 0 * 16 + (int)(p - st->x);
  if (p >= st->out && p < st->out + NO) return 1 * 16 + (int)(p - st->out);
  if (p >= st->y && p < st->y + NY) return 2 * 16 + (int)(p - st->y);
  return -1;
}
static void runL(StL *st) {
  st->s.p = st->y;
  st->ret = (f_ld(st->x, st->out, K, &st->s), 0.0L);
}
static long double J(const StL *in) {
  StL st = *in;
  runL(&st);
  long double j = st.ret;
  for (int i = 0; i < NL; i++) j += (long double)seedOf(i) * *locL(&st, i);
  if (whereL(&st, st.s.p) < 0) { printf("SKIP bad s.p\n"); exit(3); }
  return j;
}
static void initL(StL *st) {
  for (int i = 0; i < NX; i++) st->x[i] = X0[i];
  for (int i = 0; i < NO; i++) st->out[i] = O0[i];
  for (int i = 0; i < NY; i++) st->y[i] = Y0[i];
  st->s.a = SA0; st->s.b = (float)SB0; st->s.c[0] = SC0[0]; st->s.c[1] = SC0[1]; st->s.n = SN0;
  st->ret = 0;
}
static long double fd(const StL *base, int i, long double h) {
  StL a = *base, b = *base;
  long double v = *locL(&a, i);
  long double hh = h * (fabsl(v) > 1 ? fabsl(v) : 1);
  *locL(&a, i) = v + hh; *locL(&b, i) = v - hh;
  return (J(&a) - J(&b)) / (2 * hh);
}

int main(void) {
  double x[NX], out[NO], y[NY], dx[NX], dout[NO], dy[NY];
  S_d s, ds;
  memset(&s, 0, sizeof s); memset(&ds, 0, sizeof ds);
  for (int i = 0; i < NX; i++) { x[i] = X0[i]; dx[i] = DX0[i]; }
  for (int i = 0; i < NO; i++) { out[i] = O0[i]; dout[i] = DO0[i]; }
  for (int i = 0; i < NY; i++) { y[i] = Y0[i]; dy[i] = DY0[i]; }
  s.a = SA0; s.b = (float)SB0; s.c[0] = SC0[0]; s.c[1] = SC0[1]; s.n = SN0; s.p = y;
  ds.a = DSA0; ds.b = (float)DSB0; ds.c[0] = DSC0[0]; ds.c[1] = DSC0[1]; ds.n = 0; ds.p = dy;
  /* plain call */
  double x2[NX], out2[NO], y2[NY]; S_d s2 = s;
  memcpy(x2, x, sizeof x); memcpy(out2, out, sizeof out); memcpy(y2, y, sizeof y); s2.p = y2;
  double ret2 = (f(x2, out2, K, &s2), 0.0);
  (void)ret2;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, K, enzyme_dup, &s, &ds);
  int bad = 0;
  /* primal check */
  for (int i = 0; i < NX; i++) if (!(x[i] == x2[i])) { printf("PRIMAL x[%d] %.17g vs %.17g\n", i, x[i], x2[i]); bad = 1; }
  for (int i = 0; i < NO; i++) if (!(out[i] == out2[i])) { printf("PRIMAL out[%d] %.17g vs %.17g\n", i, out[i], out2[i]); bad = 1; }
  for (int i = 0; i < NY; i++) if (!(y[i] == y2[i])) { printf("PRIMAL y[%d] %.17g vs %.17g\n", i, y[i], y2[i]); bad = 1; }
  if (!(s.a == s2.a && s.b == s2.b && s.c[0] == s2.c[0] && s.c[1] == s2.c[1] && s.n == s2.n)) {
    printf("PRIMAL s {%.17g %.9g %d %.17g %.17g} vs {%.17g %.9g %d %.17g %.17g}\n", s.a, s.b, s.n, s.c[0], s.c[1], s2.a, s2.b, s2.n, s2.c[0], s2.c[1]); bad = 1; }
  /* pointer stored in s.p: primal and shadow */
  {
    int w1 = -1, w2 = -1, wd = -1;
    if (s.p >= x && s.p < x + NX) w1 = (int)(s.p - x);
    else if (s.p >= out && s.p < out + NO) w1 = 16 + (int)(s.p - out);
    else if (s.p >= y && s.p < y + NY) w1 = 32 + (int)(s.p - y);
    if (s2.p >= x2 && s2.p < x2 + NX) w2 = (int)(s2.p - x2);
    else if (s2.p >= out2 && s2.p < out2 + NO) w2 = 16 + (int)(s2.p - out2);
    else if (s2.p >= y2 && s2.p < y2 + NY) w2 = 32 + (int)(s2.p - y2);
    if (ds.p >= dx && ds.p < dx + NX) wd = (int)(ds.p - dx);
    else if (ds.p >= dout && ds.p < dout + NO) wd = 16 + (int)(ds.p - dout);
    else if (ds.p >= dy && ds.p < dy + NY) wd = 32 + (int)(ds.p - dy);
    if (w1 != w2) { printf("PRIMAL s.p %d vs %d\n", w1, w2); bad = 1; }
    if (wd != w1) { printf("SHADOWPTR ds.p %d vs s.p %d\n", wd, w1); bad = 1; }
  }
  /* reference */
  StL base; initL(&base);
  { StL t = base; runL(&t);
    for (int i = 0; i < NL; i++) {
      long double v = *locL(&t, i); if (!isfinite((double)v) || fabsl(v) > 1e6) { printf("SKIP big %d\n", i); return 3; }
      double pd = i < NX ? x2[i] : i < NX+NO ? out2[i-NX] : i < NX+NO+NY ? y2[i-NX-NO] : i == NX+NO+NY ? s2.a : i == NX+NO+NY+1 ? s2.b : s2.c[i-NX-NO-NY-2];
      if (fabsl(v - pd) > 1e-4 * (1 + fabsl(v))) { printf("SKIP diverge %d %.10Lg %.10g\n", i, v, pd); return 3; }
    }
  }
  double got[NL];
  for (int i = 0; i < NX; i++) got[i] = dx[i];
  for (int i = 0; i < NO; i++) got[NX+i] = dout[i];
  for (int i = 0; i < NY; i++) got[NX+NO+i] = dy[i];
  got[NX+NO+NY] = ds.a; got[NX+NO+NY+1] = ds.b; got[NX+NO+NY+2] = ds.c[0]; got[NX+NO+NY+3] = ds.c[1];
  long double ref[NL], scale = 1; int smooth[NL];
  for (int i = 0; i < NL; i++) {
    long double g1 = fd(&base, i, 1e-7L), g2 = fd(&base, i, 1e-5L);
    ref[i] = g1;
    smooth[i] = fabsl(g1 - g2) <= 1e-6L * (1 + fabsl(g1));
    if (!isfinite((double)g1)) { printf("SKIP fd nonfinite\n"); return 3; }
    if (fabsl(g1) > scale) scale = fabsl(g1);
  }
  const char *nm[NL] = {"dx0","dx1","dx2","dx3","dout0","dout1","dout2","dout3","dy0","dy1","dy2","dy3","ds.a","ds.b","ds.c0","ds.c1"};
  for (int i = 0; i < NL; i++) {
    if (!smooth[i]) { printf("NONSMOOTH %s\n", nm[i]); continue; }
    double tol = (i == NX+NO+NY+1 ? 1e-5 : 1e-7) * scale;
    if (!(fabsl(got[i] - ref[i]) <= tol)) { printf("GRAD %s got %.12g expected %.12Lg\n", nm[i], got[i], ref[i]); bad = 1; }
  }
  printf(bad ? "FAIL\n" : "OK\n");
  return bad;
}
