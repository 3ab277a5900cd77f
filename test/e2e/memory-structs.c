// Arrays of structs with mixed fields (constant and run-time indices) and
// a union read as a double, through enzyme_dup pointers. References: finite
// differences of the same C code; the integer fields' shadows are left
// untouched.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
#include "gradcheck.h"

extern int enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct { int id; double w[3]; float scale; } Item;

double energy(const Item *items, int k, double *work) {
  work[0] = items[0].w[0] * items[1].w[2] * items[0].scale;
  work[1] = items[k].w[1] * items[k].id + exp(items[1].w[0]);
  return work[0] + work[1] * work[0];
}
static int K;
static long double energy_at(const long double *v) {
  Item items[2] = {{2, {v[0], v[1], v[2]}, 0.5f}, {3, {v[3], v[4], v[5]}, 2.0f}};
  double work[2];
  return energy(items, K, work);
}

typedef union { double d; long bits; } Word;
double through_union(const Word *w, const double *x) {
  return w[0].d * x[0] + w[1].d;
}
static long double through_union_at(const long double *v) {
  Word w[2] = {{.d = v[0]}, {.d = v[1]}};
  double x[1] = {v[2]};
  return through_union(w, x);
}

int main(void) {
  for (K = 0; K != 2; ++K) {
    Item items[2] = {{2, {0.3, 0.6, 0.9}, 0.5f}, {3, {1.2, 1.5, 1.8}, 2.0f}};
    Item ditems[2] = {{0}, {0}};
    double work[2], dwork[2] = {0, 0};
    __enzyme_autodiff((void *)energy, items, ditems, enzyme_const, K, work,
                      dwork);
    gc_grad(K ? "energy k=1" : "energy k=0", energy_at, 6,
            (long double[]){0.3, 0.6, 0.9, 1.2, 1.5, 1.8},
            (long double[]){ditems[0].w[0], ditems[0].w[1], ditems[0].w[2],
                            ditems[1].w[0], ditems[1].w[1], ditems[1].w[2]},
            GC_TOL_DOUBLE);
    /* d/d scale0 = items[0].w[0] * items[1].w[2] * (1 + work1). */
    double work1 = items[K].w[1] * items[K].id + exp(items[1].w[0]);
    gc_expect("energy", "d scale0", ditems[0].scale,
              (float)(0.3 * 1.8 * (1 + work1)), 1e-6L);
    gc_expect("energy", "id shadows untouched", ditems[0].id + ditems[1].id,
              0, 0);
    gc_expect("energy", "work consumed", dwork[0] + dwork[1], 0, 0);
  }
  Word w[2] = {{.d = 1.25}, {.d = -0.5}}, dw[2] = {{.d = 0}, {.d = 0}};
  double x[1] = {3.0}, dx[1] = {0};
  __enzyme_autodiff((void *)through_union, w, dw, x, dx);
  gc_grad("through_union", through_union_at, 3, (long double[]){1.25, -0.5, 3.0},
          (long double[]){dw[0].d, dw[1].d, dx[0]}, GC_TOL_DOUBLE);
  return gc_finish();
}
