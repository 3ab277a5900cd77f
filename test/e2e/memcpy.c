// memcpy on memory that holds derivatives: float bytes hand their adjoints
// back to the source (and are consumed at the destination), pointer bytes
// carry their shadows along; constant and run-time lengths, struct
// assignment. References: finite differences of the same C code and closed
// forms for the consumption of the destination's shadow.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
#include "gradcheck.h"
#include <string.h>

extern int enzyme_const;
void __enzyme_autodiff(void *, ...);

/* A run-time length: the reverse is a loop. */
double sum_copy(const double *x, int n) {
  double buf[64];
  memcpy(buf, x, n * sizeof(double));
  return buf[0] * buf[n - 1] + sin(buf[1]) * buf[2];
}
static long double sum_copy_at(const long double *v) {
  double x[5] = {v[0], v[1], v[2], v[3], v[4]};
  return sum_copy(x, 5);
}

/* Struct assignment, then an update of the copy: out = f(in). */
typedef struct { double a, b; } Pair;
void copy_pair(Pair *out, const Pair *in) {
  *out = *in;
  out->a *= out->b;
}
static long double copy_pair_at(const long double *v) {
  Pair in = {v[0], v[1]}, out;
  copy_pair(&out, &in);
  return 1.0L * out.a + 10.0L * out.b; /* the seeds used below */
}

/* A struct holding a pointer, copied: the copy's pointer needs its shadow. */
typedef struct { double *p; double v; } Node;
double via_node(const Node *n) {
  Node c;
  memcpy(&c, n, sizeof c);
  return c.p[0] * c.v + c.p[1];
}
static long double via_node_at(const long double *v) {
  double u[2] = {v[0], v[1]};
  Node n = {u, v[2]};
  return via_node(&n);
}

/* A struct with an int, padding and a float, assigned as a whole: the
   padding and the int carry nothing, the doubles and the float move. */
typedef struct { int id; double w[2]; float s; } Item;
void copy_item(Item *out, const Item *in) {
  *out = *in;
  out->w[0] *= in->w[1];
}
static long double copy_item_at(const long double *v) {
  Item in = {7, {v[0], v[1]}, 1.5f}, out;
  copy_item(&out, &in);
  return 1.0L * out.w[0] + 10.0L * out.w[1] + 100.0L * out.s;
}

/* Small structs are copied through integers by the optimizer. */
typedef struct { double x; } One;
void copy_one(One *out, const One *in) {
  *out = *in;
  out->x *= 2;
}
void swap(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  double x[5] = {1, 2, 3, 4, 5}, dx[5] = {0};
  __enzyme_autodiff((void *)sum_copy, x, dx, enzyme_const, 5);
  gc_grad("sum_copy", sum_copy_at, 5, (long double[]){1, 2, 3, 4, 5},
          (long double[]){dx[0], dx[1], dx[2], dx[3], dx[4]}, GC_TOL_DOUBLE);

  Pair in = {1.5, 2.5}, din = {0, 0}, out, dout = {1, 10};
  __enzyme_autodiff((void *)copy_pair, &out, &dout, &in, &din);
  gc_grad("copy_pair", copy_pair_at, 2, (long double[]){1.5, 2.5},
          (long double[]){din.a, din.b}, GC_TOL_DOUBLE);
  gc_expect("copy_pair", "dout.a consumed", dout.a, 0, 0);
  gc_expect("copy_pair", "dout.b consumed", dout.b, 0, 0);

  double u[2] = {3, 7}, du[2] = {0, 0};
  Node n = {u, 4}, dn = {du, 0};
  __enzyme_autodiff((void *)via_node, &n, &dn);
  gc_grad("via_node", via_node_at, 3, (long double[]){3, 7, 4},
          (long double[]){du[0], du[1], dn.v}, GC_TOL_DOUBLE);
  Item it = {7, {2, 3}, 1.5f}, dit = {0, {0, 0}, 0}, ot,
       dot = {0, {1, 10}, 100};
  __enzyme_autodiff((void *)copy_item, &ot, &dot, &it, &dit);
  gc_grad("copy_item", copy_item_at, 2, (long double[]){2, 3},
          (long double[]){dit.w[0], dit.w[1]}, GC_TOL_DOUBLE);
  gc_expect("copy_item", "d s", dit.s, 100, 0);
  gc_expect("copy_item", "dout consumed", dot.w[0] + dot.w[1] + dot.s, 0, 0);

  One o1, i1 = {2}, do1 = {1}, di1 = {0};
  __enzyme_autodiff((void *)copy_one, &o1, &do1, &i1, &di1);
  gc_expect("copy_one", "d x", di1.x, 2, 0);
  double a = 1, b = 2, da = 10, db = 20;
  __enzyme_autodiff((void *)swap, &a, &da, &b, &db);
  gc_expect("swap", "da", da, 20, 0);
  gc_expect("swap", "db", db, 10, 0);
  return gc_finish();
}
