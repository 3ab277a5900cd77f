/*===- ba_problem.c - The BA benchmark's inputs and reference -------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "n=N,m=M,p=P": N cameras, M points, P observations; the full run's   *|
|* are the shapes of ADBench's ba1, ba2, ba5 and ba9. Points fill the cube    *|
|* [-2, 2]^3; cameras sit 10 away from the origin looking at it (optical      *|
|* axes up to 120 degrees from +z, so rotations are large) with a small       *|
|* random tilt, so every point is in front of every camera (depth in about    *|
|* [6, 14]). Each observation picks its camera and point at random; its       *|
|* feature is the point's projection plus noise of a couple of pixels.        *|
\*===----------------------------------------------------------------------===*/
#include "ba.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define REAL long double
#define BA_FN(name) name##_long
#define BA_SQRT sqrtl
#define BA_SIN sinl
#define BA_COS cosl
#include "ba_primal.inc"
#undef REAL

static void random_camera(bench_rng *rng, double *cam) {
  /* d: the direction from the origin to the center, kept away from +z so
     that the rotation aiming the camera at the origin is well below pi. */
  double d[3], norm;
  do {
    for (int i = 0; i < 3; ++i)
      d[i] = bench_normal(rng);
    norm = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  } while (norm == 0 || d[2] > 0.5 * norm);
  for (int i = 0; i < 3; ++i) {
    d[i] /= norm;
    cam[BA_CENTER + i] = 10 * d[i];
  }
  /* The rotation taking the viewing direction -d to +z: about
     (-d) x e_z = (-d1, d0, 0), whose length is the angle's sine, by
     acos(-d2). */
  double axis[3] = {-d[1], d[0], 0};
  double s = sqrt(axis[0] * axis[0] + axis[1] * axis[1]);
  double angle = acos(-d[2]);
  for (int i = 0; i < 3; ++i)
    cam[BA_ROT + i] =
        (s > 0 ? angle * axis[i] / s : 0) + 0.05 * bench_normal(rng);
  cam[BA_FOCAL] = 400 + 200 * bench_uniform(rng);
  cam[BA_PRINCIPAL] = 5 * bench_normal(rng);
  cam[BA_PRINCIPAL + 1] = 5 * bench_normal(rng);
  cam[BA_KAPPA] = 0.1 * (bench_uniform(rng) - 0.5);
  cam[BA_KAPPA + 1] = 0.02 * (bench_uniform(rng) - 0.5);
}

static void *setup(const char *size) {
  long n = bench_size_param(size, "n", -1);
  long m = bench_size_param(size, "m", -1);
  long p = bench_size_param(size, "p", -1);
  if (n < 1 || m < 1 || p < 1 || p > 20000000)
    return NULL;
  struct ba *b = calloc(1, sizeof(struct ba));
  b->n = (int)n;
  b->m = (int)m;
  b->p = (int)p;
  b->cams = malloc(BA_CAM_PARAMS * n * sizeof(double));
  b->X = malloc(3 * m * sizeof(double));
  b->w = malloc(p * sizeof(double));
  b->obs = malloc(2 * p * sizeof(int));
  b->feats = malloc(2 * p * sizeof(double));
  b->reproj_err = malloc(2 * p * sizeof(double));
  b->w_err = malloc(p * sizeof(double));
  bench_rng rng;
  bench_seed(&rng, 11);
  for (long i = 0; i < n; ++i)
    random_camera(&rng, b->cams + BA_CAM_PARAMS * i);
  for (long i = 0; i < 3 * m; ++i)
    b->X[i] = 4 * bench_uniform(&rng) - 2;
  for (long i = 0; i < p; ++i) {
    int c = (int)(bench_uniform(&rng) * n), j = (int)(bench_uniform(&rng) * m);
    b->obs[2 * i] = c;
    b->obs[2 * i + 1] = j;
    b->w[i] = 0.5 + 0.5 * bench_uniform(&rng);
    long double cam[BA_CAM_PARAMS], X[3], proj[2];
    for (int k = 0; k < BA_CAM_PARAMS; ++k)
      cam[k] = b->cams[BA_CAM_PARAMS * c + k];
    for (int k = 0; k < 3; ++k)
      X[k] = b->X[3 * j + k];
    project_long(cam, X, proj);
    for (int k = 0; k < 2; ++k)
      b->feats[2 * i + k] = (double)proj[k] + 2 * bench_normal(&rng);
  }
  return b;
}

static void teardown(void *ctx) {
  struct ba *b = ctx;
  free(b->cams);
  free(b->X);
  free(b->w);
  free(b->obs);
  free(b->feats);
  free(b->reproj_err);
  free(b->w_err);
  free(b);
}

static size_t deriv_len(void *ctx) {
  return (size_t)(BA_BLOCK + 1) * ((struct ba *)ctx)->p;
}

static void primal(void *ctx) { ba_objective_primal_opt(ctx); }
static void hand(void *ctx, double *deriv) { ba_jacobian_hand(ctx, deriv); }
static void adjoint(void *ctx, double *deriv) {
  ba_jacobian_adjoint_opt(ctx, deriv);
}
static void ref(void *ctx, double *deriv) {
  ba_jacobian_adjoint_ref(ctx, deriv);
}

/* Sample e takes observation ~e p / max_entries and entry e mod 31 of its
   part of the Jacobian: the 30 of its block (every camera parameter, point
   coordinate and the weight, in both rows) or its weight error's. Each
   entry is a central difference of that observation's residual, computed
   in long double from the parameters its row depends on. */
static double check_fd(void *ctx, const double *deriv, int max_entries) {
  struct ba *b = ctx;
  double worst = 0;
  for (int e = 0; e < max_entries; ++e) {
    long i = (long)((double)e * b->p / max_entries);
    int entry = e % (BA_BLOCK + 1);
    /* The observation's parameters, laid out as a row of its block. */
    long double x[BA_ROW], feat[2] = {b->feats[2 * i], b->feats[2 * i + 1]};
    for (int k = 0; k < BA_CAM_PARAMS; ++k)
      x[k] = b->cams[BA_CAM_PARAMS * b->obs[2 * i] + k];
    for (int k = 0; k < 3; ++k)
      x[BA_ROW_POINT + k] = b->X[3 * b->obs[2 * i + 1] + k];
    x[BA_ROW_WEIGHT] = b->w[i];
    int inBlock = entry < BA_BLOCK;
    int row = inBlock ? entry / BA_ROW : 0;
    int param = inBlock ? entry % BA_ROW : BA_ROW_WEIGHT;
    long double h = 1e-6L * fmaxl(1, fabsl(x[param])), saved = x[param];
    long double value[2];
    for (int side = 0; side < 2; ++side) {
      x[param] = saved + (side ? -h : h);
      long double err[2];
      if (inBlock)
        reproj_error_long(x, x + BA_ROW_POINT, x + BA_ROW_WEIGHT, feat, err);
      else
        weight_error_long(x + BA_ROW_WEIGHT, err);
      value[side] = err[row];
    }
    double fd = (double)((value[0] - value[1]) / (2 * h));
    double d = inBlock ? deriv[(size_t)BA_BLOCK * i + entry]
                       : deriv[(size_t)BA_BLOCK * b->p + i];
    worst = fmax(worst, bench_fd_error(fd, d));
  }
  return worst;
}

static const char *const sizes[] = {
    "n=49,m=7776,p=31843", "n=21,m=11315,p=36455", "n=257,m=65132,p=225911",
    "n=810,m=88814,p=393775", NULL};

const struct bench_problem bench_problem = {
    .name = "ba",
    .sizes = sizes,
    .quick_size = "n=3,m=10,p=30",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
