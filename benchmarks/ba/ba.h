/*===- ba.h - The bundle-adjustment benchmark's shared declarations -------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* ADBench's BA problem: n cameras of 11 parameters, m points of 3, and p     *|
|* observations, each of one point by one camera with a weight. The           *|
|* derivative is ADBench's sparse Jacobian: for every observation a 2 x 15    *|
|* block, row-major (row k is the gradient of reprojection error k with       *|
|* respect to the camera's 11 parameters, the point's 3 and the weight),      *|
|* 30 doubles per observation, followed by the p derivatives of the weight    *|
|* errors 1 - w_i^2.                                                          *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_BA_H
#define ADJOINT_BENCH_BA_H

#include "bench.h"

/* A camera's parameters: rotation (angle-axis), center, focal length,
   principal point, radial distortion. */
enum {
  BA_ROT = 0,
  BA_CENTER = 3,
  BA_FOCAL = 6,
  BA_PRINCIPAL = 7,
  BA_KAPPA = 9,
  BA_CAM_PARAMS = 11
};

/* A row of an observation's block: camera, then point, then weight. */
enum { BA_ROW_POINT = BA_CAM_PARAMS, BA_ROW_WEIGHT = BA_CAM_PARAMS + 3 };
enum { BA_ROW = BA_ROW_WEIGHT + 1, BA_BLOCK = 2 * BA_ROW };

struct ba {
  int n, m, p;
  double *cams;  /* 11 n */
  double *X;     /* 3 m */
  double *w;     /* p */
  int *obs;      /* 2 p: camera index, point index */
  double *feats; /* 2 p: the observed image points */
  /* The primal's outputs. */
  double *reproj_err; /* 2 p */
  double *w_err;      /* p */
};

void ba_objective_primal_opt(struct ba *b);
void ba_jacobian_adjoint_opt(struct ba *b, double *J);
void ba_jacobian_adjoint_ref(struct ba *b, double *J);
void ba_jacobian_hand(struct ba *b, double *J);

#endif /* ADJOINT_BENCH_BA_H */
