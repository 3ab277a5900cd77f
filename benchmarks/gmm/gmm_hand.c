/*===- gmm_hand.c - The GMM gradient written by hand ----------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* One sweep over the points. For each point the forward part keeps every     *|
|* component's centred point xc = x_i - mu_k and y = Q_k xc; the reverse      *|
|* part turns the main terms into softmax weights w_k and pulls the adjoint   *|
|* g = -w_k y of y back through Q_k:                                          *|
|*   dmu_k -= Q_k^T g,  dL_k[row][col] += g[row] xc[col],                     *|
|*   d(diag Q_k)[j] += g[j] xc[j].                                            *|
|* What every point adds to the diagonal's log (exp's chain factor) and to    *|
|* alpha_k and the log-determinant (the weights themselves) is summed over    *|
|* the points first and applied once at the end, with the prior's and the     *|
|* weights' normaliser's terms.                                               *|
\*===----------------------------------------------------------------------===*/
#include "gmm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gmm_grad_hand(struct gmm *p, double *deriv) {
  int d = p->d, K = p->K, n = p->n, icf_size = gmm_icf_size(d);
  const double *alphas = p->alphas, *means = p->means, *icf = p->icf, *x = p->x;
  double gamma = p->gamma;
  double *dalphas = deriv, *dmeans = deriv + K, *dicf = deriv + K + K * d;
  memset(deriv, 0, gmm_param_count(p) * sizeof(double));

  double *work = malloc(((size_t)4 * K * d + 3 * K + d) * sizeof(double));
  double *Qdiags = work;                  /* K x d */
  double *dQdiags = Qdiags + K * d;       /* K x d, summed over the points */
  double *xcentered = dQdiags + K * d;    /* K x d, for the current point */
  double *Qxcentered = xcentered + K * d; /* K x d, for the current point */
  double *main_term = Qxcentered + K * d; /* K */
  double *sum_qs = main_term + K;         /* K */
  double *weight_sums = sum_qs + K;       /* K, summed over the points */
  double *g = weight_sums + K;            /* d */
  memset(dQdiags, 0, K * d * sizeof(double));
  memset(weight_sums, 0, K * sizeof(double));

  for (int k = 0; k < K; ++k) {
    double s = 0;
    for (int j = 0; j < d; ++j) {
      s += icf[k * icf_size + j];
      Qdiags[k * d + j] = exp(icf[k * icf_size + j]);
    }
    sum_qs[k] = s;
  }

  for (int i = 0; i < n; ++i) {
    const double *xi = x + (size_t)i * d;
    double largest = -INFINITY;
    for (int k = 0; k < K; ++k) {
      const double *mu = means + k * d, *Qdiag = Qdiags + k * d;
      const double *Ltri = icf + k * icf_size + d;
      double *xc = xcentered + k * d, *y = Qxcentered + k * d;
      for (int j = 0; j < d; ++j) {
        xc[j] = xi[j] - mu[j];
        y[j] = Qdiag[j] * xc[j];
      }
      int l = 0;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row)
          y[row] += Ltri[l++] * xc[col];
      double sqnorm = 0;
      for (int j = 0; j < d; ++j)
        sqnorm += y[j] * y[j];
      main_term[k] = sum_qs[k] + alphas[k] - 0.5 * sqnorm;
      largest = fmax(largest, main_term[k]);
    }
    double sum = 0;
    for (int k = 0; k < K; ++k) {
      main_term[k] = exp(main_term[k] - largest);
      sum += main_term[k];
    }

    for (int k = 0; k < K; ++k) {
      double w = main_term[k] / sum;
      weight_sums[k] += w;
      const double *Qdiag = Qdiags + k * d;
      const double *xc = xcentered + k * d, *y = Qxcentered + k * d;
      double *dmu = dmeans + k * d, *dQdiag = dQdiags + k * d;
      double *dLtri = dicf + k * icf_size + d;
      const double *Ltri = icf + k * icf_size + d;
      for (int j = 0; j < d; ++j) {
        g[j] = -w * y[j];
        dQdiag[j] += g[j] * xc[j];
        dmu[j] -= Qdiag[j] * g[j];
      }
      int l = 0;
      for (int col = 0; col < d; ++col) {
        double dxc = 0;
        for (int row = col + 1; row < d; ++row, ++l) {
          dLtri[l] += g[row] * xc[col];
          dxc += Ltri[l] * g[row];
        }
        dmu[col] -= dxc;
      }
    }
  }

  /* -n logsumexp(alphas): minus n times the softmax of the alphas. */
  double largest = -INFINITY, sum = 0;
  for (int k = 0; k < K; ++k)
    largest = fmax(largest, alphas[k]);
  for (int k = 0; k < K; ++k)
    sum += exp(alphas[k] - largest);
  double gamma2 = gamma * gamma;
  for (int k = 0; k < K; ++k) {
    dalphas[k] = weight_sums[k] - n * exp(alphas[k] - largest) / sum;
    /* The log-diagonal: the main terms' log-determinant, exp's chain
       factor on the points' part, and the prior's 0.5 gamma^2 exp(2q) and
       -m q. */
    for (int j = 0; j < d; ++j) {
      double D = Qdiags[k * d + j];
      dicf[k * icf_size + j] =
          weight_sums[k] + D * dQdiags[k * d + j] + gamma2 * D * D - p->m;
    }
    for (int j = d; j < icf_size; ++j)
      dicf[k * icf_size + j] += gamma2 * icf[k * icf_size + j];
  }
  free(work);
}
