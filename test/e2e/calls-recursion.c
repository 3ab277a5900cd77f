// Calls that stay calls after the clone's inlining: recursion and mutual
// recursion, differentiated through one augmented forward and one reverse
// function per (callee, call pattern). Covers a recursive power and
// polynomial, a recursive sum over a heap-allocated binary tree, mutual
// recursion, adaptive Simpson quadrature whose recursion depth depends on
// the data, recursion inside a loop (the tapes are cached per iteration),
// one recursive helper called with an active and with a constant argument,
// and a recursive function returning a pointer into active memory.
// References: long-double central finite differences of the same C code;
// the sanitizer runs check that tapes and shadows are freed exactly once.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
// RUN: %clang-adjoint -O0 -fsanitize=address %s -o %tb -lm && %tb
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double d0, d1;
} D2;
D2 __enzyme_autodiff_d2(void *, ...); /* An entry point too: two gradients. */

/* x^n by recursion; not a tail call, so it stays recursive at -O3. */
double rpow(double x, int n) { return n == 0 ? 1.0 : x * rpow(x, n - 1); }
double pow_sin(double x) { return rpow(x, 5) + sin(x); }
static long double pow_sin_at(const long double *v) { return pow_sin(v[0]); }

/* Horner's rule by recursion over the coefficients. */
double rpoly(const double *c, int n, double x) {
  return n == 0 ? 0.0 : c[0] + x * rpoly(c + 1, n - 1, x);
}
static double coef[4] = {0.5, -1.0, 2.0, 0.25};
static long double rpoly_at(const long double *v) {
  double c[4] = {v[0], v[1], v[2], v[3]};
  return rpoly(c, 4, v[4]);
}

/* A binary tree on the heap: the sum of squares of the node values, the
   right subtree going through sin. */
typedef struct Node {
  double v;
  struct Node *l, *r;
} Node;
double tree(const Node *n) {
  if (!n)
    return 0;
  return n->v * n->v + tree(n->l) + sin(tree(n->r));
}
enum { NumNodes = 7 };
static Node *build(const double *v, Node *nodes, int i) {
  if (i >= NumNodes)
    return 0;
  nodes[i].v = v[i];
  nodes[i].l = build(v, nodes, 2 * i + 1);
  nodes[i].r = build(v, nodes, 2 * i + 2);
  return &nodes[i];
}
static long double tree_at(const long double *v) {
  double d[NumNodes];
  Node nodes[NumNodes];
  for (int i = 0; i < NumNodes; ++i)
    d[i] = v[i];
  return tree(build(d, nodes, 0));
}

/* Mutual recursion. */
double odd_step(double x, int n);
double even_step(double x, int n) {
  return n <= 0 ? x : odd_step(sin(x) + 0.5 * x, n - 1);
}
double odd_step(double x, int n) {
  return n <= 0 ? x * x : even_step(x * 1.1 - 0.2, n - 1);
}
double mutual(double x) { return even_step(x, 7); }
static long double mutual_at(const long double *v) { return mutual(v[0]); }

/* Adaptive Simpson for the integral of exp(a t) sin(b t) on [0, 1]: the
   recursion splits an interval until the two halves agree, so its depth
   depends on a and b. */
static double integrand(double a, double b, double t) {
  return exp(a * t) * sin(b * t);
}
double simpson(double a, double b, double lo, double hi, double flo,
               double fmid, double fhi, double whole, int depth) {
  double mid = 0.5 * (lo + hi), h = hi - lo;
  double fl = integrand(a, b, 0.5 * (lo + mid));
  double fr = integrand(a, b, 0.5 * (mid + hi));
  double left = h / 12 * (flo + 4 * fl + fmid);
  double right = h / 12 * (fmid + 4 * fr + fhi);
  if (depth == 0 || fabs(left + right - whole) < 1e-5 * h)
    return left + right;
  return simpson(a, b, lo, mid, flo, fl, fmid, left, depth - 1) +
         simpson(a, b, mid, hi, fmid, fr, fhi, right, depth - 1);
}
double quad(double a, double b) {
  double f0 = integrand(a, b, 0), f1 = integrand(a, b, 1),
         fm = integrand(a, b, 0.5);
  return simpson(a, b, 0, 1, f0, fm, f1, (f0 + 4 * fm + f1) / 6, 12);
}
static long double quad_at(const long double *v) { return quad(v[0], v[1]); }

/* Recursion inside a loop: each iteration's call has its own tape. */
double loop_of_calls(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += rpow(x[i], i % 4 + 1) * x[(i + 1) % n];
  return s;
}
static long double loop_of_calls_at(const long double *v) {
  double x[6];
  for (int i = 0; i < 6; ++i)
    x[i] = v[i];
  return loop_of_calls(x, 6);
}

/* One helper, two call patterns: a constant and an active scale. */
double rscale(double s, double x, int n) {
  return n == 0 ? x : s * rscale(s, x, n - 1) + x;
}
double two_patterns(double x, double y) {
  return rscale(1.5, x, 3) * rscale(y, x, 4);
}
static long double two_patterns_at(const long double *v) {
  return two_patterns(v[0], v[1]);
}

/* A recursive function returning a pointer into active memory. */
const double *largest(const double *x, int n) {
  if (n == 1)
    return x;
  const double *rest = largest(x + 1, n - 1);
  return *rest > *x ? rest : x;
}
double largest_sq(const double *x, int n) {
  const double *p = largest(x, n);
  return *p * *p + x[0];
}
static long double largest_sq_at(const long double *v) {
  double x[5] = {v[0], v[1], v[2], v[3], v[4]};
  return largest_sq(x, 5);
}

int main(void) {
  {
    double x = 1.3;
    double g = __enzyme_autodiff((void *)pow_sin, x);
    gc_grad("pow_sin", pow_sin_at, 1, (long double[]){x}, (long double[]){g},
            GC_TOL_DOUBLE);
  }
  {
    double c[4], dc[4] = {0};
    for (int i = 0; i < 4; ++i)
      c[i] = coef[i];
    double x = 0.7;
    double dx = __enzyme_autodiff((void *)rpoly, enzyme_dup, c, dc,
                                  enzyme_const, 4, enzyme_out, x);
    gc_grad("rpoly", rpoly_at, 5, (long double[]){c[0], c[1], c[2], c[3], x},
            (long double[]){dc[0], dc[1], dc[2], dc[3], dx}, GC_TOL_DOUBLE);
  }
  {
    double v[NumNodes] = {1.0, 2.0, 0.5, 1.5, 0.7, -0.3, 0.9};
    Node *nodes = malloc(NumNodes * sizeof(Node));
    Node *shadow = calloc(NumNodes, sizeof(Node));
    Node *root = build(v, nodes, 0);
    double zero[NumNodes] = {0};
    build(zero, shadow, 0); /* The same links, zero values. */
    __enzyme_autodiff((void *)tree, enzyme_dup, root, shadow);
    long double x[NumNodes], g[NumNodes];
    for (int i = 0; i < NumNodes; ++i) {
      x[i] = v[i];
      g[i] = shadow[i].v;
    }
    gc_grad("tree", tree_at, NumNodes, x, g, GC_TOL_DOUBLE);
    free(nodes);
    free(shadow);
  }
  {
    double x = 0.4;
    double g = __enzyme_autodiff((void *)mutual, x);
    gc_grad("mutual", mutual_at, 1, (long double[]){x}, (long double[]){g},
            GC_TOL_DOUBLE);
  }
  {
    double a = 1.7, b = 4.0; /* No subdivision decision flips within the FD steps. */
    D2 g = __enzyme_autodiff_d2((void *)quad, a, b);
    gc_grad("quad", quad_at, 2, (long double[]){a, b},
            (long double[]){g.d0, g.d1}, GC_TOL_DOUBLE);
  }
  {
    double x[6] = {0.9, -1.1, 1.3, 0.6, -0.8, 1.2}, dx[6] = {0};
    __enzyme_autodiff((void *)loop_of_calls, enzyme_dup, x, dx, enzyme_const,
                      6);
    long double lx[6], lg[6];
    for (int i = 0; i < 6; ++i) {
      lx[i] = x[i];
      lg[i] = dx[i];
    }
    gc_grad("loop_of_calls", loop_of_calls_at, 6, lx, lg, GC_TOL_DOUBLE);
  }
  {
    double x = 0.8, y = -1.2;
    D2 g = __enzyme_autodiff_d2((void *)two_patterns, x, y);
    gc_grad("two_patterns", two_patterns_at, 2, (long double[]){x, y},
            (long double[]){g.d0, g.d1}, GC_TOL_DOUBLE);
  }
  {
    double x[5] = {0.5, 2.5, -3.0, 1.0, 2.0}, dx[5] = {0};
    __enzyme_autodiff((void *)largest_sq, enzyme_dup, x, dx, enzyme_const, 5);
    gc_grad("largest_sq", largest_sq_at, 5,
            (long double[]){x[0], x[1], x[2], x[3], x[4]},
            (long double[]){dx[0], dx[1], dx[2], dx[3], dx[4]},
            GC_TOL_DOUBLE);
  }
  return gc_finish();
}
