/*===- hand_ad.c - The hand primal and its Jacobian from Adjoint ----------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h).           *|
|*                                                                            *|
|* The Jacobian is tall (3 npts rows, 26 or 28 columns), so forward mode     *|
|* computes it a column per sweep: one sweep per theta parameter with a unit *|
|* tangent, and in the complicated variant two more for the u columns. Each  *|
|* residual row depends on its own point's u only, so seeding every point's *|
|* u0 at once (then every u1) yields those two dense columns.               *|
\*===----------------------------------------------------------------------===*/
#include "hand.h"

#include <stdlib.h>

void __enzyme_fwddiff(void *, ...);

#define REAL double
#include "hand_primal.inc"

void BENCH_VARIANT(hand_primal)(struct hand *h) {
  if (h->complicated)
    hand_objective_complicated(h->theta, h->us, &h->model, &h->data, h->err);
  else
    hand_objective(h->theta, &h->model, &h->data, h->err);
}

void BENCH_VARIANT(hand_jacobian_adjoint)(struct hand *h, double *J) {
  size_t rows = 3 * (size_t)h->data.npts;
  double dtheta[HAND_NUM_THETA] = {0};
  if (!h->complicated) {
    for (int k = 0; k < HAND_NUM_THETA; ++k) {
      dtheta[k] = 1;
      __enzyme_fwddiff((void *)hand_objective, enzyme_dup, h->theta, dtheta,
                       enzyme_const, &h->model, enzyme_const, &h->data,
                       enzyme_dupnoneed, h->err, J + k * rows);
      dtheta[k] = 0;
    }
    return;
  }

  int npts = h->data.npts;
  double *dus = calloc(2 * (size_t)npts, sizeof(double));
  for (int c = 0; c < 2; ++c) {
    for (int p = 0; p < npts; ++p) {
      dus[2 * p + c] = 1;
      dus[2 * p + 1 - c] = 0;
    }
    __enzyme_fwddiff((void *)hand_objective_complicated, enzyme_const,
                     h->theta, enzyme_dup, h->us, dus, enzyme_const, &h->model,
                     enzyme_const, &h->data, enzyme_dupnoneed, h->err,
                     J + c * rows);
  }
  free(dus);
  for (int k = 0; k < HAND_NUM_THETA; ++k) {
    dtheta[k] = 1;
    __enzyme_fwddiff((void *)hand_objective_complicated, enzyme_dup, h->theta,
                     dtheta, enzyme_const, h->us, enzyme_const, &h->model,
                     enzyme_const, &h->data, enzyme_dupnoneed, h->err,
                     J + (2 + k) * rows);
    dtheta[k] = 0;
  }
}
