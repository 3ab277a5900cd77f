// Forward mode through calls that inlining leaves: recursion and mutual
// recursion call forward derivatives of their callees, one per activity
// pattern. A sum over a binary tree of malloc'd nodes (its shadow is a tree
// of the same shape), adaptive quadrature whose recursion depth depends on
// the data, two mutually recursive functions, a recursive function called
// in a loop, and one recursive helper called with different arguments
// active (two patterns). References: finite differences of the same C code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O2 -ffast-math %s -o %tf -lm && %tf
// RUN: %clang-adjoint -O2 -g %s -o %tg -lm && %tg
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

typedef struct Node {
  double val;
  struct Node *left, *right;
} Node;

double treesum(const Node *n) {
  if (!n)
    return 0;
  return sin(n->val) * n->val + treesum(n->left) + 2 * treesum(n->right);
}

/* A complete tree over v[0..n), in heap order; the shadow tree has the same
   shape, with tangents for values. */
static Node *build(const long double *v, int i, int n) {
  if (i >= n)
    return NULL;
  Node *node = malloc(sizeof(Node));
  node->val = v[i];
  node->left = build(v, 2 * i + 1, n);
  node->right = build(v, 2 * i + 2, n);
  return node;
}
static void release(Node *n) {
  if (!n)
    return;
  release(n->left);
  release(n->right);
  free(n);
}
#define TREE 6
static long double treesum_at(const long double *v) {
  Node *t = build(v, 0, TREE);
  double r = treesum(t);
  release(t);
  return r;
}

/* Adaptive trapezoidal quadrature of exp(p x) sin(x) over [a, b]: an
   interval is split while the refinement changes the estimate by more
   than tol, so the depth depends on a, b and p. */
static double integrand(double x, double p) { return exp(p * x) * sin(x); }
double adapt(double a, double b, double p, double fa, double fb, double whole,
             double tol, int depth) {
  double m = 0.5 * (a + b), fm = integrand(m, p);
  double left = 0.5 * (m - a) * (fa + fm), right = 0.5 * (b - m) * (fm + fb);
  if (depth == 0 || fabs(left + right - whole) < tol)
    return left + right;
  return adapt(a, m, p, fa, fm, left, 0.5 * tol, depth - 1) +
         adapt(m, b, p, fm, fb, right, 0.5 * tol, depth - 1);
}
double integrate(double a, double b, double p) {
  double fa = integrand(a, p), fb = integrand(b, p);
  return adapt(a, b, p, fa, fb, 0.5 * (b - a) * (fa + fb), 1e-3, 30);
}
static long double integrate_at(const long double *v) {
  return integrate(v[0], v[1], v[2]);
}
/* How many intervals the quadrature ends with, to check that the depth
   really varies between the points tested. */
static int pieces(double a, double b, double p, double fa, double fb,
                  double whole, double tol, int depth) {
  double m = 0.5 * (a + b), fm = integrand(m, p);
  double left = 0.5 * (m - a) * (fa + fm), right = 0.5 * (b - m) * (fm + fb);
  if (depth == 0 || fabs(left + right - whole) < tol)
    return 1;
  return pieces(a, m, p, fa, fm, left, 0.5 * tol, depth - 1) +
         pieces(m, b, p, fm, fb, right, 0.5 * tol, depth - 1);
}

/* Mutual recursion. */
double pong(double x, int n);
double ping(double x, int n) {
  return n <= 0 ? x : pong(x * 1.1, n - 1) + sin(x);
}
double pong(double x, int n) {
  return n <= 0 ? cos(x) : ping(x - 0.1, n - 1) * x;
}
static int PingN;
static long double ping_at(const long double *v) { return ping(v[0], PingN); }

/* A recursive function called in a loop. */
double power(double x, int n) { return n == 0 ? 1 : x * power(x, n - 1); }
double poly(const double *c, double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c[i] * power(x, i);
  return s;
}
static long double poly_at(const long double *v) {
  double c[4] = {v[0], v[1], v[2], v[3]};
  return poly(c, v[4], 4);
}

/* One helper, called with its first argument active and its second
   constant, then the other way round: two forward derivatives. */
double scaled(double x, double c, int n) {
  return n == 0 ? x : c * scaled(sin(x), c, n - 1);
}
double twice(double x, double c) {
  return scaled(x, c, 3) + scaled(c, x, 2);
}
static long double twice_at(const long double *v) { return twice(v[0], v[1]); }

int main(void) {
  {
    long double at[TREE] = {0.5, -1.25, 2, 0.75, 1.5, -0.3};
    long double dir[TREE] = {1, 0.5, -1, 2, 0, 3};
    Node *t = build(at, 0, TREE), *dt = build(dir, 0, TREE);
    gc_tangent("treesum", treesum_at, TREE, at, dir,
               __enzyme_fwddiff((void *)treesum, t, dt), GC_TOL_DOUBLE);
    release(t);
    release(dt);
  }
  {
    /* Points where the quadrature ends with different numbers of
       intervals; finite differences stay within one subdivision. */
    long double points[3][3] = {{0, 1, 0.5}, {0, 1.5, 0.8}, {0.1, 2, 0.7}};
    int previous = -1;
    for (int k = 0; k != 3; ++k) {
      long double *v = points[k];
      double fa = integrand(v[0], v[2]), fb = integrand(v[1], v[2]);
      int n = pieces(v[0], v[1], v[2], fa, fb, 0.5 * (v[1] - v[0]) * (fa + fb),
                     1e-3, 30);
      gc_expect("integrate", "depth varies", n != previous, 1, 0);
      previous = n;
      gc_tangent("integrate", integrate_at, 3, v, (long double[]){1, 0, 0},
                 __enzyme_fwddiff((void *)integrate, (double)v[0], 1.0,
                                  (double)v[1], 0.0, (double)v[2], 0.0),
                 GC_TOL_DOUBLE);
      gc_tangent("integrate", integrate_at, 3, v, (long double[]){0, 1, 2},
                 __enzyme_fwddiff((void *)integrate, (double)v[0], 0.0,
                                  (double)v[1], 1.0, (double)v[2], 2.0),
                 GC_TOL_DOUBLE);
    }
  }
  for (PingN = 0; PingN != 6; ++PingN)
    gc_tangent("ping", ping_at, 1, (long double[]){0.7}, (long double[]){1},
               __enzyme_fwddiff((void *)ping, 0.7, 1.0, PingN), GC_TOL_DOUBLE);
  {
    double c[4] = {1, -2, 0.5, 3}, dc[4] = {0, 1, 0, -1};
    gc_tangent("poly", poly_at, 5, (long double[]){1, -2, 0.5, 3, 0.8},
               (long double[]){0, 1, 0, -1, 2},
               __enzyme_fwddiff((void *)poly, c, dc, 0.8, 2.0, 4),
               GC_TOL_DOUBLE);
  }
  gc_tangent("twice", twice_at, 2, (long double[]){0.6, 1.4},
             (long double[]){1, -0.5},
             __enzyme_fwddiff((void *)twice, 0.6, 1.0, 1.4, -0.5),
             GC_TOL_DOUBLE);
  return gc_finish();
}
