/*===- gmm_problem.c - The GMM benchmark's inputs and reference -----------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "d=D,K=K[,n=N][,m=M]": N (default 1000) points of dimension D, K     *|
|* components, a Wishart prior with gamma = 1 and M (default 0) extra         *|
|* degrees of freedom, as in ADBench. Points, means and alphas are standard   *|
|* normal; icf is normal with deviation 0.1, so that every Q_k is well        *|
|* conditioned and the components overlap enough for the softmax weights to  *|
|* stay away from exactly 0 and 1.                                           *|
\*===----------------------------------------------------------------------===*/
#include "gmm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define REAL long double
#define GMM_LOSS gmm_loss_long
#include "gmm_primal.inc"
#undef REAL

static void *setup(const char *size) {
  long d = bench_size_param(size, "d", -1);
  long K = bench_size_param(size, "K", -1);
  long n = bench_size_param(size, "n", 1000);
  long m = bench_size_param(size, "m", 0);
  if (d < 1 || d > 1000 || K < 1 || K > 10000 || n < 1 || n > 1000000 || m < 0)
    return NULL;
  struct gmm *p = calloc(1, sizeof(struct gmm));
  p->d = (int)d;
  p->K = (int)K;
  p->n = (int)n;
  p->m = (int)m;
  p->gamma = 1.0;
  size_t count = gmm_param_count(p);
  p->alphas = malloc(count * sizeof(double));
  p->means = p->alphas + K;
  p->icf = p->means + K * d;
  p->x = malloc((size_t)n * d * sizeof(double));
  bench_rng r;
  bench_seed(&r, 64);
  for (long i = 0; i < n * d; ++i)
    p->x[i] = bench_normal(&r);
  for (long k = 0; k < K; ++k)
    p->alphas[k] = bench_normal(&r);
  for (long i = 0; i < K * d; ++i)
    p->means[i] = bench_normal(&r);
  for (long i = 0; i < K * gmm_icf_size(p->d); ++i)
    p->icf[i] = 0.1 * bench_normal(&r);
  return p;
}

static void teardown(void *ctx) {
  struct gmm *p = ctx;
  free(p->alphas);
  free(p->x);
  free(p);
}

static size_t deriv_len(void *ctx) { return gmm_param_count(ctx); }

static void primal(void *ctx) {
  struct gmm *p = ctx;
  p->loss = gmm_loss_primal_opt(p);
}

static void hand(void *ctx, double *deriv) { gmm_grad_hand(ctx, deriv); }
static void adjoint(void *ctx, double *deriv) {
  gmm_grad_adjoint_opt(ctx, deriv);
}
static void ref(void *ctx, double *deriv) { gmm_grad_adjoint_ref(ctx, deriv); }

enum { Alphas, Means, LogDiagonal, OffDiagonal, NumKinds };

/* The number of parameters of a kind, and the flat index (in the
   derivative's layout) of the e-th of them. */
static long kind_count(const struct gmm *p, int kind) {
  long d = p->d, K = p->K;
  switch (kind) {
  case Alphas:
    return K;
  case Means:
    return K * d;
  case LogDiagonal:
    return K * d;
  default:
    return K * (gmm_icf_size(p->d) - d);
  }
}

static long kind_index(const struct gmm *p, int kind, long e) {
  long d = p->d, K = p->K, icf_size = gmm_icf_size(p->d);
  switch (kind) {
  case Alphas:
    return e;
  case Means:
    return K + e;
  case LogDiagonal:
    return K + K * d + e / d * icf_size + e % d;
  default:
    return K + K * d + e / (icf_size - d) * icf_size + d + e % (icf_size - d);
  }
}

static double check_fd(void *ctx, const double *deriv, int max_entries) {
  struct gmm *p = ctx;
  int d = p->d, K = p->K;
  size_t count = gmm_param_count(p);
  long double *params = malloc(count * sizeof(long double));
  long double *x = malloc((size_t)p->n * d * sizeof(long double));
  for (size_t i = 0; i < count; ++i)
    params[i] = p->alphas[i];
  for (size_t i = 0; i < (size_t)p->n * d; ++i)
    x[i] = p->x[i];
  long double *alphas = params, *means = params + K, *icf = means + K * d;

  /* An equal share of the entries for every kind there is, spread evenly
     over that kind. */
  int kinds = d > 1 ? NumKinds : NumKinds - 1;
  int per_kind = max_entries / kinds > 1 ? max_entries / kinds : 1;
  double worst = 0;
  for (int kind = 0; kind < kinds; ++kind) {
    long total = kind_count(p, kind);
    int samples = total < per_kind ? (int)total : per_kind;
    for (int s = 0; s < samples; ++s) {
      long i = kind_index(p, kind, (long)s * total / samples);
      long double h = 1e-6L * fmaxl(1, fabsl(params[i])), saved = params[i];
      params[i] = saved + h;
      long double up =
          gmm_loss_long(d, K, p->n, alphas, means, icf, x, p->gamma, p->m);
      params[i] = saved - h;
      long double down =
          gmm_loss_long(d, K, p->n, alphas, means, icf, x, p->gamma, p->m);
      params[i] = saved;
      double fd = (double)((up - down) / (2 * h));
      worst = fmax(worst, bench_fd_error(fd, deriv[i]));
    }
  }
  free(params);
  free(x);
  return worst;
}

/* From ADBench's grid (d in 2..64, K in 5..200, n = 1000), kept small
   enough for a full --time of all of them to stay near a minute. */
static const char *const sizes[] = {"d=2,K=5",   "d=10,K=25", "d=20,K=50",
                                    "d=32,K=25", "d=64,K=10", NULL};

const struct bench_problem bench_problem = {
    .name = "gmm",
    .sizes = sizes,
    .quick_size = "d=3,K=4,n=50,m=2",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
