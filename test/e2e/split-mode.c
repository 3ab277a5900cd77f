// Split reverse mode, as ML frameworks and solvers use it: the primal work
// and the reverse pass run in separate calls, here in separate functions,
// with the tape kept in between. __enzyme_augmentfwd does fn's work and
// returns a tape (and fn's result); __enzyme_reverse later adds the
// gradients into the shadows and returns those of the enzyme_out
// arguments. The memory fn read is overwritten between the two calls, so
// the reverse must take what it needs from the tape. Also: the tape kept in
// a caller's buffer (enzyme_allocated / enzyme_tape, sized by
// __enzyme_augmentsize), a loop and a recursive helper inside fn, and
// several tapes alive at once. References: long-double finite differences.
// RUN: %clang-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clang-adjoint -O1 %s -o %t1 -lm && %t1
// RUN: %clang-adjoint -O2 %s -o %t2 -lm && %t2
// RUN: %clang-adjoint -O3 %s -o %t3 -lm && %t3
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
#include "gradcheck.h"
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_tape,
    enzyme_allocated;
void *__enzyme_augmentfwd(void *, ...);
typedef struct {
  void *tape;
  double value;
} TapeAndValue;
TapeAndValue __enzyme_augmentfwd_value(void *, ...);
double __enzyme_reverse(void *, ...);
void __enzyme_reverse_void(void *, ...);
int __enzyme_augmentsize(void *, ...);

/* In-place: y = sin(x) * x elementwise, plus a running product. */
void layer(double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i) {
    p *= 1 + 0.1 * x[i];
    x[i] = sin(x[i]) * x[i] + p;
  }
}
static long double layer_out_at(const long double *v) {
  double x[4] = {v[0], v[1], v[2], v[3]};
  layer(x, 4);
  return x[0] + 2 * x[1] + 3 * x[2] + 4 * x[3]; /* the seed below */
}

double rsum(const double *x, int n) { return n == 0 ? 0 : x[0] * x[0] + sin(rsum(x + 1, n - 1)); }
double energy(const double *x, int n, double k) { return k * rsum(x, n); }
static long double energy_at(const long double *v) {
  double x[3] = {v[0], v[1], v[2]};
  return energy(x, 3, v[3]);
}

/* The two halves of an ML layer's backward, as a framework calls them. */
static void *saved;
static void forward_step(double *x, double *dx, int n) {
  saved = __enzyme_augmentfwd((void *)layer, enzyme_dup, x, dx, enzyme_const,
                              n);
}
static void backward_step(double *x, double *dx, int n) {
  __enzyme_reverse_void((void *)layer, enzyme_dup, x, dx, enzyme_const, n,
                        saved);
}

int main(void) {
  {
    double x[4] = {0.3, -0.6, 1.2, 0.8}, dx[4] = {0};
    double x0[4] = {0.3, -0.6, 1.2, 0.8};
    forward_step(x, dx, 4);
    /* The caller consumes the output and writes the output's seeds. */
    for (int i = 0; i < 4; ++i)
      dx[i] = i + 1;
    backward_step(x, dx, 4);
    gc_grad("layer", layer_out_at, 4, (long double[]){x0[0], x0[1], x0[2], x0[3]},
            (long double[]){dx[0], dx[1], dx[2], dx[3]}, GC_TOL_DOUBLE);
  }
  {
    double x[3] = {0.4, -0.9, 1.3}, dx[3] = {0}, k = 1.7;
    TapeAndValue a = __enzyme_augmentfwd_value((void *)energy, enzyme_dup, x,
                                               dx, enzyme_const, 3, k);
    gc_expect("energy", "value", a.value, energy(x, 3, k), GC_TOL_DOUBLE);
    double saved_x[3] = {x[0], x[1], x[2]};
    x[0] = x[1] = x[2] = 100; /* The reverse must not read these. */
    double dk = __enzyme_reverse((void *)energy, enzyme_dup, x, dx,
                                 enzyme_const, 3, k, 1.0, a.tape);
    gc_grad("energy", energy_at, 4,
            (long double[]){saved_x[0], saved_x[1], saved_x[2], k},
            (long double[]){dx[0], dx[1], dx[2], dk}, GC_TOL_DOUBLE);
  }
  {
    /* The caller allocates the tape's storage. */
    int size = __enzyme_augmentsize((void *)energy, enzyme_dup, enzyme_const,
                                    enzyme_out);
    gc_expect("augmentsize", "bytes", size, sizeof(void *), 0);
    void *buffer = malloc(size);
    double x[3] = {0.4, -0.9, 1.3}, dx[3] = {0}, k = 1.7;
    __enzyme_augmentfwd((void *)energy, enzyme_allocated, size, enzyme_tape,
                        buffer, enzyme_dup, x, dx, enzyme_const, 3, k);
    double dk = __enzyme_reverse((void *)energy, enzyme_allocated, size,
                                 enzyme_tape, buffer, enzyme_dup, x, dx,
                                 enzyme_const, 3, k, 2.0);
    gc_grad("energy (buffer, seed 2)", energy_at, 4,
            (long double[]){x[0], x[1], x[2], k},
            (long double[]){dx[0] / 2, dx[1] / 2, dx[2] / 2, dk / 2},
            GC_TOL_DOUBLE);
    free(buffer);
  }
  {
    /* Several tapes alive at once, reversed in another order. */
    double x[2][3] = {{0.1, 0.2, 0.3}, {-0.5, 0.7, 1.1}}, dx[2][3] = {{0}};
    void *tapes[2];
    for (int j = 0; j < 2; ++j)
      tapes[j] = __enzyme_augmentfwd_value((void *)energy, enzyme_dup, x[j],
                                           dx[j], enzyme_const, 3, 1.0)
                     .tape;
    for (int j = 1; j >= 0; --j) {
      __enzyme_reverse((void *)energy, enzyme_dup, x[j], dx[j], enzyme_const,
                       3, 1.0, 1.0, tapes[j]);
      gc_grad("energy (two tapes)", energy_at, 4,
              (long double[]){x[j][0], x[j][1], x[j][2], 1.0},
              (long double[]){dx[j][0], dx[j][1], dx[j][2], energy(x[j], 3, 1.0)},
              GC_TOL_DOUBLE);
    }
  }
  return gc_finish();
}
