/*===- lstm_problem.c - The LSTM benchmark's inputs and reference ---------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "l=L,c=C": L layers over C characters of b = 14 bits (ADBench's      *|
|* sizes; "b=B" overrides the width). Parameters and the initial state are    *|
|* uniform in [-1, 1]; every character is one-hot on a random bit.            *|
\*===----------------------------------------------------------------------===*/
#include "lstm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

#define REAL long double
#include "lstm_primal.inc"
#undef REAL

static void *setup(const char *size) {
  long l = bench_size_param(size, "l", -1);
  long c = bench_size_param(size, "c", -1);
  long b = bench_size_param(size, "b", 14);
  if (l < 1 || c < 2 || b < 1)
    return NULL;
  struct lstm *p = calloc(1, sizeof(struct lstm));
  p->l = (int)l;
  p->c = (int)c;
  p->b = (int)b;
  p->main_params = malloc((8 * l + 3) * b * sizeof(double));
  p->extra_params = p->main_params + 8 * l * b;
  p->state0 = malloc(6 * l * b * sizeof(double));
  p->state = p->state0 + 2 * l * b;
  p->dstate = p->state0 + 4 * l * b;
  p->sequence = calloc(c * b, sizeof(double));
  bench_rng r;
  bench_seed(&r, 7);
  for (long i = 0; i < (8 * l + 3) * b; ++i)
    p->main_params[i] = 2 * bench_uniform(&r) - 1;
  for (long i = 0; i < 2 * l * b; ++i)
    p->state0[i] = 2 * bench_uniform(&r) - 1;
  for (long t = 0; t < c; ++t)
    p->sequence[t * b + (long)(bench_uniform(&r) * b)] = 1;
  return p;
}

static void teardown(void *ctx) {
  struct lstm *p = ctx;
  free(p->main_params);
  free(p->state0);
  free(p->sequence);
  free(p);
}

static size_t deriv_len(void *ctx) {
  struct lstm *p = ctx;
  return (size_t)(8 * p->l + 3) * p->b;
}

static void primal(void *ctx) {
  struct lstm *p = ctx;
  p->loss = lstm_loss_primal_opt(p);
}

static void hand(void *ctx, double *deriv) { lstm_grad_hand(ctx, deriv); }
static void adjoint(void *ctx, double *deriv) { lstm_grad_adjoint_opt(ctx, deriv); }
static void ref(void *ctx, double *deriv) { lstm_grad_adjoint_ref(ctx, deriv); }

static long double loss_long(const struct lstm *p, const long double *params,
                             long double *state, const long double *state0,
                             const long double *sequence) {
  int l = p->l, b = p->b;
  memcpy(state, state0, 2 * l * b * sizeof(long double));
  return lstm_objective(l, p->c, b, params, params + 8 * l * b, state,
                        sequence);
}

/* Entry j goes to vector j mod (8 l + 3) (every weight, bias and extra
   vector of every layer in turn), at an element that moves on with each
   round so that repeated visits sample different bits. */
static double check_fd(void *ctx, const double *deriv, int max_entries) {
  struct lstm *p = ctx;
  int l = p->l, b = p->b, vectors = 8 * l + 3, total = vectors * b;
  long double *x = malloc((total + 4 * l * b + (size_t)p->c * b) *
                          sizeof(long double));
  long double *state0 = x + total, *state = state0 + 2 * l * b,
              *sequence = state + 2 * l * b;
  for (int i = 0; i < total; ++i)
    x[i] = p->main_params[i];
  for (int i = 0; i < 2 * l * b; ++i)
    state0[i] = p->state0[i];
  for (long i = 0; i < (long)p->c * b; ++i)
    sequence[i] = p->sequence[i];
  double worst = 0;
  int entries = max_entries < total ? max_entries : total;
  for (int j = 0; j < entries; ++j) {
    int v = j % vectors, round = j / vectors;
    int i = v * b + (v + 5 * round) % b;
    long double h = 1e-6L * fmaxl(1, fabsl(x[i])), saved = x[i];
    x[i] = saved + h;
    long double up = loss_long(p, x, state, state0, sequence);
    x[i] = saved - h;
    long double down = loss_long(p, x, state, state0, sequence);
    x[i] = saved;
    double fd = (double)((up - down) / (2 * h));
    worst = fmax(worst, bench_fd_error(fd, deriv[i]));
  }
  free(x);
  return worst;
}

static const char *const sizes[] = {"l=2,c=1024", "l=2,c=4096", "l=4,c=1024",
                                    "l=4,c=4096", NULL};

const struct bench_problem bench_problem = {
    .name = "lstm",
    .sizes = sizes,
    .quick_size = "l=2,c=20",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
