/*===- ode_problem.c - The ODE benchmark's inputs and reference -----------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "n=N,steps=S": N variables, S RK4 steps of 0.01. Damping in          *|
|* [0.8, 1.2] and forcing in [0.5, 1.5] keep the ring away from chaos, so     *|
|* that the gradient stays well conditioned over the whole integration.       *|
\*===----------------------------------------------------------------------===*/
#include "ode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define REAL long double
#define ODE_LOSS ode_loss_long
#include "ode_primal.inc"
#undef REAL

static void *setup(const char *size) {
  long n = bench_size_param(size, "n", -1);
  long steps = bench_size_param(size, "steps", -1);
  if (n < 4 || steps < 1)
    return NULL;
  struct ode *p = calloc(1, sizeof(struct ode));
  p->n = (int)n;
  p->steps = (int)steps;
  p->dt = 0.01;
  p->y0 = malloc(3 * n * sizeof(double));
  p->a = p->y0 + n;
  p->F = p->y0 + 2 * n;
  bench_rng r;
  bench_seed(&r, 6);
  for (long i = 0; i < n; ++i) {
    p->y0[i] = bench_normal(&r);
    p->a[i] = 0.8 + 0.4 * bench_uniform(&r);
    p->F[i] = 0.5 + bench_uniform(&r);
  }
  return p;
}

static void teardown(void *ctx) {
  struct ode *p = ctx;
  free(p->y0);
  free(p);
}

static size_t deriv_len(void *ctx) { return 3 * (size_t)((struct ode *)ctx)->n; }

static void primal(void *ctx) {
  struct ode *p = ctx;
  p->loss = ode_loss_primal_opt(p);
}

static void hand(void *ctx, double *deriv) { ode_grad_hand(ctx, deriv); }
static void adjoint(void *ctx, double *deriv) { ode_grad_adjoint_opt(ctx, deriv); }
static void ref(void *ctx, double *deriv) { ode_grad_adjoint_ref(ctx, deriv); }

static double check_fd(void *ctx, const double *deriv, int max_entries) {
  struct ode *p = ctx;
  int n = p->n, total = 3 * n;
  long double *x = malloc(total * sizeof(long double));
  for (int i = 0; i < total; ++i)
    x[i] = p->y0[i];
  double worst = 0;
  int stride = total / max_entries > 1 ? total / max_entries : 1;
  for (int i = 0; i < total; i += stride) {
    long double h = 1e-6L * fmaxl(1, fabsl(x[i])), saved = x[i];
    x[i] = saved + h;
    long double up = ode_loss_long(x, x + n, x + 2 * n, n, p->steps, p->dt);
    x[i] = saved - h;
    long double down = ode_loss_long(x, x + n, x + 2 * n, n, p->steps, p->dt);
    x[i] = saved;
    double fd = (double)((up - down) / (2 * h));
    worst = fmax(worst, bench_fd_error(fd, deriv[i]));
  }
  free(x);
  return worst;
}

static const char *const sizes[] = {"n=16,steps=1000", "n=64,steps=1000",
                                    "n=256,steps=400", NULL};

const struct bench_problem bench_problem = {
    .name = "ode",
    .sizes = sizes,
    .quick_size = "n=8,steps=50",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
