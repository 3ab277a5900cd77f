/*===- fft_problem.c - The FFT benchmark's inputs and reference -----------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "n=N,algo=A": N (a power of two) complex points, transformed by the  *|
|* recursive (A = rec, the default) or the iterative (A = iter) FFT of        *|
|* fft_transform.inc. The signal is standard normal in both parts and the     *|
|* weights are uniform in [0.5, 1.5], so that every frequency contributes     *|
|* to the gradient differently.                                               *|
\*===----------------------------------------------------------------------===*/
#include "fft.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REAL long double
#define FFT_PREFIX fft_long
#define FFT_MATH(f) f##l
#include "fft_primal.inc"
#undef REAL

/* algo=rec -> 1, algo=iter -> 0, absent -> 1; -1 for anything else. */
static int parse_recursive(const char *size) {
  const char *algo = strstr(size, "algo=");
  if (!algo)
    return 1;
  algo += strlen("algo=");
  size_t len = strcspn(algo, ",");
  if (len == 3 && !strncmp(algo, "rec", 3))
    return 1;
  if (len == 4 && !strncmp(algo, "iter", 4))
    return 0;
  return -1;
}

static void *setup(const char *size) {
  long n = bench_size_param(size, "n", -1);
  int recursive = parse_recursive(size);
  if (n < 2 || n > (1L << 26) || (n & (n - 1)) || recursive < 0)
    return NULL;
  struct fft *p = calloc(1, sizeof(struct fft));
  p->n = (int)n;
  p->recursive = recursive;
  p->x = malloc(2 * n * sizeof(double));
  p->weight = malloc(n * sizeof(double));
  bench_rng r;
  bench_seed(&r, 7);
  for (long i = 0; i < 2 * n; ++i)
    p->x[i] = bench_normal(&r);
  for (long k = 0; k < n; ++k)
    p->weight[k] = 0.5 + bench_uniform(&r);
  return p;
}

static void teardown(void *ctx) {
  struct fft *p = ctx;
  free(p->x);
  free(p->weight);
  free(p);
}

static size_t deriv_len(void *ctx) { return 2 * (size_t)((struct fft *)ctx)->n; }

static void primal(void *ctx) {
  struct fft *p = ctx;
  p->loss = fft_loss_primal_opt(p);
}

static void hand(void *ctx, double *deriv) { fft_grad_hand(ctx, deriv); }
static void adjoint(void *ctx, double *deriv) {
  struct fft *p = ctx;
  if (p->recursive)
    fft_grad_adjoint_rec_opt(p, deriv);
  else
    fft_grad_adjoint_iter_opt(p, deriv);
}

static void ref(void *ctx, double *deriv) {
  struct fft *p = ctx;
  if (p->recursive)
    fft_grad_adjoint_rec_ref(p, deriv);
  else
    fft_grad_adjoint_iter_ref(p, deriv);
}

static long double loss_long(const struct fft *p, const long double *x,
                             const long double *weight) {
  return p->recursive ? fft_long_loss_rec(x, weight, p->n)
                      : fft_long_loss_iter(x, weight, p->n);
}

/* The entries: entry e is point e n / entries, its real part for even e and
   its imaginary part for odd e, so that both parts and all of the signal
   are sampled; fewer than max_entries for large n, where each long double
   evaluation is slow (entries * n <= 2^22).

   The loss is a sum of n terms of size log n, so its long double rounding
   grows to about 5e-11 at n = 2^18: too much for a central difference with
   a small step. The stencil is the fourth-order one,
     f' ~ (8 (f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h,
   whose truncation error with h = 1e-3 is negligible even where some
   |X_k| is small (elsewhere |X_k| ~ sqrt(n) and the loss is very smooth),
   while the rounding error over that step stays below about 2e-8. */
static double check_fd(void *ctx, const double *deriv, int max_entries) {
  struct fft *p = ctx;
  int n = p->n;
  long double *x = malloc(2 * n * sizeof(long double));
  long double *weight = malloc(n * sizeof(long double));
  for (int i = 0; i < 2 * n; ++i)
    x[i] = p->x[i];
  for (int k = 0; k < n; ++k)
    weight[k] = p->weight[k];
  long entries = max_entries;
  if (entries > (1L << 22) / n)
    entries = (1L << 22) / n;
  if (entries > 2L * n)
    entries = 2L * n;
  double worst = 0;
  for (long e = 0; e < entries; ++e) {
    int i = 2 * (int)(e * n / entries) + (int)(e & 1);
    long double h = 1e-3L * fmaxl(1, fabsl(x[i])), saved = x[i], f[4];
    static const int offsets[4] = {1, -1, 2, -2};
    for (int s = 0; s < 4; ++s) {
      x[i] = saved + offsets[s] * h;
      f[s] = loss_long(p, x, weight);
    }
    x[i] = saved;
    double fd = (double)((8 * (f[0] - f[1]) - (f[2] - f[3])) / (12 * h));
    worst = fmax(worst, bench_fd_error(fd, deriv[i]));
  }
  free(x);
  free(weight);
  return worst;
}

/* At n = 2^18 the recursive transform's twiddle recurrence has drifted by
   about 1e-11 after 2^17 steps, and the hand-written gradient (which applies
   that transform, not the exact transpose of the computed one) differs from
   Adjoint's by about 6e-9 relative: within ToleranceVsHand, but not by much.
   The iterative transform reads exact twiddles and agrees to 1e-10. */
static const char *const sizes[] = {
    "n=1024,algo=rec",  "n=16384,algo=rec",  "n=262144,algo=rec",
    "n=1024,algo=iter", "n=16384,algo=iter", "n=262144,algo=iter", NULL};

const struct bench_problem bench_problem = {
    .name = "fft",
    .sizes = sizes,
    .quick_size = "n=64,algo=rec",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
