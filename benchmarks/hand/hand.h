/*===- hand.h - The hand-tracking benchmark's shared declarations ---------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* ADBench's hand model: a skinned mesh of 22 bones posed by 26 parameters,  *|
|* fitted to points. One problem covers both of ADBench's variants, chosen    *|
|* by the size string (hand_problem.c):                                      *|
|*                                                                            *|
|*  - simple: each point corresponds to a vertex; the Jacobian is             *|
|*    3 npts x 26 (d err / d theta);                                          *|
|*  - complicated: each point corresponds to a triangle and a barycentric     *|
|*    position u (2 per point) on it; the Jacobian is 3 npts x 28, the two   *|
|*    columns d err / d u first (each row depends on its own point's u only, *|
|*    so ADBench stores them densely), then the 26 theta columns.            *|
|*                                                                            *|
|* Jacobians are stored column-major: entry (row r, column c) at             *|
|* J[c * 3 npts + r], as ADBench writes them.                                *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_HAND_H
#define ADJOINT_BENCH_HAND_H

#include "bench.h"

#define HAND_NUM_BONES 22
#define HAND_NUM_FINGERS 5
/* Global rotation (3), translation (3), then 4 per finger. */
#define HAND_NUM_THETA 26

/* Matrices are row-major 4x4 (16 doubles). Bones are ordered so that a
   parent precedes its children. */
struct hand_model {
  int nbones, nverts, ntriangles;
  int is_mirrored;                      /* negate x before the global pose */
  const int *parents;                   /* nbones; -1 for the root */
  const double *base_relatives;         /* nbones 4x4: bone in its parent */
  const double *inverse_base_absolutes; /* nbones 4x4 */
  const double *base_positions;         /* nverts x 4, homogeneous */
  const double *weights;                /* nbones x nverts, row-major */
  const int *triangles;                 /* ntriangles x 3 */
};

struct hand_data {
  int npts;
  const int *correspondences; /* npts: a vertex (simple) or a triangle */
  const double *points;       /* npts x 3 */
};

struct hand {
  int complicated;
  struct hand_model model;
  struct hand_data data;
  double theta[HAND_NUM_THETA];
  double *us;  /* 2 npts (complicated only) */
  double *err; /* 3 npts, the primal's output */
  /* The blocks that the model, the data, us and err point into. */
  double *real_storage;
  int *int_storage;
};

static inline int hand_num_columns(const struct hand *h) {
  return h->complicated ? 2 + HAND_NUM_THETA : HAND_NUM_THETA;
}

void hand_primal_opt(struct hand *h);
void hand_jacobian_adjoint_opt(struct hand *h, double *J);
void hand_jacobian_adjoint_ref(struct hand *h, double *J);
void hand_jacobian_hand(struct hand *h, double *J);

#endif /* ADJOINT_BENCH_HAND_H */
