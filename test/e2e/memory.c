// Gradients through memory (straight-line and branching code): arrays read
// through enzyme_dup pointers, in-place updates, outputs seeded through
// their shadows (accumulation and consumption), structs with mixed fields,
// pointers chosen by a branch, pointers stored in memory, a local array
// with a run-time index. References: finite differences of the same C code.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
#include "gradcheck.h"
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* Read-only input array. */
double energy(const double *x) { return x[0] * x[1] + sin(x[2]) * x[0]; }
static long double energy_at(const long double *v) {
  double x[3] = {v[0], v[1], v[2]};
  return energy(x);
}

/* In-place update of the state, two outputs through a pointer; the
   differentiated output is seed . out. */
void step(double *state, const double *params, double *out) {
  state[0] = state[0] * state[0] + params[0];
  out[0] = state[0] * state[1];
  out[1] = exp(state[1]) + params[1] * state[0];
}
static const double StepParams[2] = {0.1, 2.0}, StepSeed[2] = {1.0, 0.5};
static long double step_at(const long double *v) {
  double s[2] = {v[0], v[1]}, o[2];
  step(s, StepParams, o);
  return StepSeed[0] * o[0] + StepSeed[1] * o[1];
}

/* A struct with integer, array and float fields. */
typedef struct { int id; double w[3]; float scale; } Item;
double item_energy(const Item *it) {
  return it->w[0] * it->w[1] * it->scale + it->w[2] * it->id;
}
static long double item_at(const long double *v) {
  Item it = {3, {v[0], v[1], v[2]}, 0.5f};
  return item_energy(&it);
}

/* The pointer read depends on a branch. */
double pick(const double *a, const double *b, int which) {
  const double *p = which ? a : b;
  return p[0] * p[1] + a[0];
}
static int PickWhich;
static long double pick_at(const long double *v) {
  double a[2] = {v[0], v[1]}, b[2] = {v[2], v[3]};
  return pick(a, b, PickWhich);
}

/* Pointers stored in memory and loaded back. */
double indirect(double *const *pp) { return pp[0][0] * pp[1][0] + pp[1][0]; }
static long double indirect_at(const long double *v) {
  double u = v[0], w = v[1];
  double *pp[2] = {&u, &w};
  return indirect(pp);
}

/* A local array written at a run-time index. */
double local(const double *x, int k) {
  double t[3] = {0, 0, 0};
  t[k] = x[0] * 2;
  t[(k + 1) % 3] = x[1];
  return t[0] * t[1] + t[2];
}
static int LocalK;
static long double local_at(const long double *v) {
  double x[2] = {v[0], v[1]};
  return local(x, LocalK);
}

int main(void) {
  {
    double x[3] = {0.5, 1.5, 0.3}, dx[3] = {0, 0, 0};
    __enzyme_autodiff((void *)energy, enzyme_dup, x, dx);
    gc_grad("energy", energy_at, 3, (long double[]){0.5, 1.5, 0.3},
            (long double[]){dx[0], dx[1], dx[2]}, GC_TOL_DOUBLE);
  }
  {
    double s[2] = {0.7, 0.2}, ds[2] = {0, 0}, o[2], dout[2];
    memcpy(dout, StepSeed, sizeof dout);
    __enzyme_autodiff((void *)step, enzyme_dup, s, ds, enzyme_const,
                      StepParams, enzyme_dup, o, dout);
    gc_grad("step", step_at, 2, (long double[]){0.7, 0.2},
            (long double[]){ds[0], ds[1]}, GC_TOL_DOUBLE);
    /* Consumption: the outputs' shadows are read, then zeroed. The primal
       effects happen as if step had been called. */
    gc_expect("step", "dout[0] consumed", dout[0], 0, 0);
    gc_expect("step", "dout[1] consumed", dout[1], 0, 0);
    gc_expect("step", "state[0] updated", s[0], 0.7 * 0.7 + 0.1, 1e-15L);
    gc_expect("step", "out[1] written", o[1], exp(0.2) + 2.0 * s[0], 1e-15L);
  }
  {
    /* Accumulation: a second call adds to the same shadows (energy does not
       overwrite its input; if it did, the shadow's old content would be
       consumed as the seed of the new value). dupnoneed gives the same. */
    double x[3] = {0.5, 1.5, 0.3}, dx[3] = {0, 0, 0};
    __enzyme_autodiff((void *)energy, enzyme_dup, x, dx);
    __enzyme_autodiff((void *)energy, enzyme_dupnoneed, x, dx);
    gc_grad("energy twice", energy_at, 3, (long double[]){0.5, 1.5, 0.3},
            (long double[]){dx[0] / 2, dx[1] / 2, dx[2] / 2}, GC_TOL_DOUBLE);
  }
  {
    /* In-out state: a nonzero shadow on entry seeds the new state[0]. With
       d_state = (1, 0) and no output seed, d_state[0] becomes
       d(state[0]')/d(state[0]) = 2 state[0]. */
    double s[2] = {0.7, 0.2}, ds[2] = {1, 0}, o[2], dout[2] = {0, 0};
    __enzyme_autodiff((void *)step, enzyme_dup, s, ds, enzyme_const,
                      StepParams, enzyme_dup, o, dout);
    gc_expect("step in-out", "d_state[0]", ds[0], 2 * 0.7, 1e-15L);
    gc_expect("step in-out", "d_state[1]", ds[1], 0, 0);
  }
  {
    Item it = {3, {1.0, 2.0, 3.0}, 0.5f}, dit;
    memset(&dit, 0, sizeof dit);
    __enzyme_autodiff((void *)item_energy, enzyme_dup, &it, &dit);
    gc_grad("item", item_at, 3, (long double[]){1.0, 2.0, 3.0},
            (long double[]){dit.w[0], dit.w[1], dit.w[2]}, GC_TOL_DOUBLE);
    /* float field: closed form (finite differences in float are too coarse
       at this tolerance). d/dscale = w0 * w1. */
    gc_expect("item", "d scale", dit.scale, 2.0, 0);
    gc_expect("item", "id shadow untouched", dit.id, 0, 0);
  }
  for (PickWhich = 0; PickWhich != 2; ++PickWhich) {
    double a[2] = {1.5, 2.0}, b[2] = {3.0, 4.0}, da[2] = {0}, db[2] = {0};
    __enzyme_autodiff((void *)pick, a, da, b, db, enzyme_const, PickWhich);
    gc_grad(PickWhich ? "pick a" : "pick b", pick_at, 4,
            (long double[]){1.5, 2.0, 3.0, 4.0},
            (long double[]){da[0], da[1], db[0], db[1]}, GC_TOL_DOUBLE);
  }
  {
    double u = 2.0, w = 5.0, du = 0, dw = 0;
    double *pp[2] = {&u, &w}, *dpp[2] = {&du, &dw};
    __enzyme_autodiff((void *)indirect, pp, dpp);
    gc_grad("indirect", indirect_at, 2, (long double[]){2.0, 5.0},
            (long double[]){du, dw}, GC_TOL_DOUBLE);
  }
  for (LocalK = 0; LocalK != 3; ++LocalK) {
    double x[2] = {0.7, 1.3}, dx[2] = {0, 0};
    __enzyme_autodiff((void *)local, x, dx, enzyme_const, LocalK);
    gc_grad("local", local_at, 2, (long double[]){0.7, 1.3},
            (long double[]){dx[0], dx[1]}, GC_TOL_DOUBLE);
  }
  return gc_finish();
}
