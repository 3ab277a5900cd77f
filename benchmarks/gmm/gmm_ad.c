/*===- gmm_ad.c - The GMM primal and its gradient from Adjoint ------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h).           *|
\*===----------------------------------------------------------------------===*/
#include "gmm.h"

#include <string.h>

#define REAL double
#define GMM_LOSS gmm_loss
#include "gmm_primal.inc"

double BENCH_VARIANT(gmm_loss_primal)(struct gmm *p) {
  return gmm_loss(p->d, p->K, p->n, p->alphas, p->means, p->icf, p->x, p->gamma,
                  p->m);
}

void BENCH_VARIANT(gmm_grad_adjoint)(struct gmm *p, double *deriv) {
  int d = p->d, K = p->K;
  memset(deriv, 0, gmm_param_count(p) * sizeof(double));
  __enzyme_autodiff((void *)gmm_loss, enzyme_const, d, enzyme_const, K,
                    enzyme_const, p->n, enzyme_dup, p->alphas, deriv,
                    enzyme_dup, p->means, deriv + K, enzyme_dup, p->icf,
                    deriv + K + K * d, enzyme_const, p->x, enzyme_const,
                    p->gamma, enzyme_const, p->m);
}
