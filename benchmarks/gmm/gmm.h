/*===- gmm.h - The GMM benchmark's shared declarations --------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Parameters: the K mixture weights' logits alphas, the K means (K x d) and  *|
|* the K inverse covariance factors icf (K x d(d+1)/2, see gmm_primal.inc);   *|
|* the derivative is laid out as [dalphas, dmeans, dicf].                     *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_GMM_H
#define ADJOINT_BENCH_GMM_H

#include "bench.h"

#define GMM_CONCAT2(a, b) a##_##b
#define GMM_CONCAT(a, b) GMM_CONCAT2(a, b)

struct gmm {
  int d, K, n;
  int m;        /* the Wishart prior's extra degrees of freedom */
  double gamma; /* the Wishart prior's scale */
  double *alphas, *means, *icf; /* contiguous from alphas */
  double *x;                    /* n points of dimension d */
  double loss;
};

/* d(d+1)/2: the log-diagonal and the strictly lower part of one factor. */
static inline int gmm_icf_size(int d) { return d * (d + 1) / 2; }

static inline size_t gmm_param_count(const struct gmm *p) {
  return (size_t)p->K * (1 + p->d + gmm_icf_size(p->d));
}

double gmm_loss_primal_opt(struct gmm *p);
void gmm_grad_adjoint_opt(struct gmm *p, double *deriv);
void gmm_grad_adjoint_ref(struct gmm *p, double *deriv);
void gmm_grad_hand(struct gmm *p, double *deriv);

#endif /* ADJOINT_BENCH_GMM_H */
