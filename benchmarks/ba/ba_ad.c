/*===- ba_ad.c - The BA residuals and their Jacobian from Adjoint ---------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h). The       *|
|* Jacobian is built as ADBench builds it with an AD tool: two reverse        *|
|* sweeps of one observation's residual function per observation (seeds       *|
|* e_0 and e_1), their gradients landing directly in the block's rows, and    *|
|* one sweep of the weight error per observation.                             *|
\*===----------------------------------------------------------------------===*/
#include "ba.h"

#include <math.h>
#include <string.h>

#define REAL double
#define BA_FN(name) name
#define BA_SQRT sqrt
#define BA_SIN sin
#define BA_COS cos
#include "ba_primal.inc"

static void objective(int p, const double *cams, const double *X,
                      const double *w, const int *obs, const double *feats,
                      double *reproj_err, double *w_err) {
  for (int i = 0; i < p; ++i)
    reproj_error(cams + BA_CAM_PARAMS * obs[2 * i], X + 3 * obs[2 * i + 1],
                 w + i, feats + 2 * i, reproj_err + 2 * i);
  for (int i = 0; i < p; ++i)
    weight_error(w + i, w_err + i);
}

void BENCH_VARIANT(ba_objective_primal)(struct ba *b) {
  objective(b->p, b->cams, b->X, b->w, b->obs, b->feats, b->reproj_err,
            b->w_err);
}

void BENCH_VARIANT(ba_jacobian_adjoint)(struct ba *b, double *J) {
  int p = b->p;
  for (int i = 0; i < p; ++i) {
    const double *cam = b->cams + BA_CAM_PARAMS * b->obs[2 * i];
    const double *X = b->X + 3 * b->obs[2 * i + 1];
    double *block = J + (size_t)BA_BLOCK * i;
    /* The sweeps accumulate into the block. */
    memset(block, 0, BA_BLOCK * sizeof(double));
    for (int k = 0; k < 2; ++k) {
      double *row = block + BA_ROW * k;
      double err[2], seed[2] = {0, 0};
      seed[k] = 1;
      __enzyme_autodiff((void *)reproj_error, enzyme_dup, cam, row, enzyme_dup,
                        X, row + BA_ROW_POINT, enzyme_dup, b->w + i,
                        row + BA_ROW_WEIGHT, enzyme_const, b->feats + 2 * i,
                        enzyme_dupnoneed, err, seed);
    }
  }
  double *wJ = J + (size_t)BA_BLOCK * p;
  for (int i = 0; i < p; ++i) {
    double err, seed = 1;
    wJ[i] = 0;
    __enzyme_autodiff((void *)weight_error, enzyme_dup, b->w + i, wJ + i,
                      enzyme_dupnoneed, &err, &seed);
  }
}
