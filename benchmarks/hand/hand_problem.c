/*===- hand_problem.c - The hand benchmark's inputs and reference ---------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Sizes "variant=simple|complicated,npts=N[,nverts=V]": ADBench's variant,   *|
|* N points and a model of V vertices (544 by default, the size of ADBench's  *|
|* small hand model).                                                        *|
|*                                                                            *|
|* ADBench reads its model from files; this one is generated: a root and a    *|
|* wrist (palm), then five fingers of four bones each (the last, the tip, is  *|
|* not posed), fanned out and slightly curled in the rest pose. Vertices      *|
|* sit on rings around their bone, blended with the parent and a child bone   *|
|* by weights that vary along it (up to three nonzero per vertex); the        *|
|* triangles are a strip over the vertices in that order. The points are     *|
|* the model posed at some theta0 (at random positions on their triangles    *|
|* in the complicated variant) plus noise, and the Jacobian is taken at a     *|
|* theta (and us) near those that generated them.                            *|
\*===----------------------------------------------------------------------===*/
#include "hand.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REAL long double
#include "hand_primal.inc"
#undef REAL

/* out = a * b for row-major 4x4 matrices. */
static void mul4(const double *a, const double *b, double *out) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double sum = 0;
      for (int k = 0; k < 4; ++k)
        sum += a[4 * i + k] * b[4 * k + j];
      out[4 * i + j] = sum;
    }
}

/* The rigid transform Rz(az) Ry(ay) Rx(ax) followed by the translation t. */
static void rigid(double ax, double ay, double az, double tx, double ty,
                  double tz, double *out) {
  long double angles[3] = {ax, az, ay}, R[16];
  euler_angles_to_rotation_matrix(angles, R);
  for (int i = 0; i < 16; ++i)
    out[i] = (double)R[i];
  out[3] = tx;
  out[7] = ty;
  out[11] = tz;
}

/* The inverse of a rigid transform: [R^T, -R^T t]. */
static void rigid_inverse(const double *m, double *out) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      out[4 * i + j] = m[4 * j + i];
    out[4 * i + 3] =
        -(m[i] * m[3] + m[4 + i] * m[7] + m[8 + i] * m[11]);
  }
  out[12] = out[13] = out[14] = 0;
  out[15] = 1;
}

/* Fills the model of h (nbones, nverts and the storage already set). */
static void generate_model(struct hand *h, double *reals, int *ints,
                           bench_rng *rng) {
  struct hand_model *m = &h->model;
  int nb = m->nbones, nv = m->nverts;
  int *parents = ints;
  int *triangles = ints + nb;
  double *base_relatives = reals;
  double *inverse_base_absolutes = reals + 16 * nb;
  double *base_positions = reals + 32 * nb;
  double *weights = base_positions + 4 * nv;
  double length[HAND_NUM_BONES], radius[HAND_NUM_BONES];

  parents[0] = -1;
  rigid(0, 0, 0, 0, 0, 0, base_relatives);
  length[0] = 2.0;
  radius[0] = 1.2;
  parents[1] = 0;
  rigid(0.05, 0, 0, 0, 2.0, 0, base_relatives + 16);
  length[1] = 3.5;
  radius[1] = 1.6;
  static const double finger_scale[HAND_NUM_FINGERS] = {1.2, 1.5, 1.6, 1.5,
                                                        1.2};
  static const double segment[4] = {1.6, 1.1, 0.8, 0.5};
  for (int f = 0; f < HAND_NUM_FINGERS; ++f) {
    int first = 2 + 4 * f;
    int thumb = f == 0;
    for (int j = 0; j < 4; ++j) {
      int b = first + j;
      double *rel = base_relatives + 16 * b;
      length[b] = finger_scale[f] * segment[j];
      radius[b] = 0.45 * finger_scale[f] * (1 - 0.12 * j);
      if (j == 0) {
        /* Spread over the far end of the palm; the thumb starts lower and
           points sideways. */
        parents[b] = 1;
        rigid(0.05 * f, thumb ? -0.5 : 0, (2 - f) * 0.1 + (thumb ? 0.6 : 0),
              (f - 2) * 0.9 - (thumb ? 0.6 : 0), thumb ? 1.0 : 3.5, 0, rel);
      } else {
        /* At the end of the previous bone, slightly curled. */
        parents[b] = b - 1;
        rigid(0.08, 0, 0.02 * bench_normal(rng), 0, length[b - 1], 0, rel);
      }
    }
  }

  double *absolutes = malloc(16 * nb * sizeof(double));
  for (int b = 0; b < nb; ++b) {
    if (parents[b] < 0)
      memcpy(absolutes, base_relatives, 16 * sizeof(double));
    else
      mul4(absolutes + 16 * parents[b], base_relatives + 16 * b,
           absolutes + 16 * b);
    rigid_inverse(absolutes + 16 * b, inverse_base_absolutes + 16 * b);
  }

  /* Vertices in contiguous blocks per bone, rings of six along the bone. */
  memset(weights, 0, (size_t)nb * nv * sizeof(double));
  for (int b = 0; b < nb; ++b) {
    int start = (int)((long)b * nv / nb), end = (int)((long)(b + 1) * nv / nb);
    int children[HAND_NUM_FINGERS], nchildren = 0;
    for (int c = b + 1; c < nb; ++c)
      if (parents[c] == b && nchildren < HAND_NUM_FINGERS)
        children[nchildren++] = c;
    int nrings = (end - start + 5) / 6;
    for (int v = start; v < end; ++v) {
      int ring = (v - start) / 6;
      double s = (ring + 0.5) / nrings;
      double phi = 6.283185307179586 * ((v - start) % 6) / 6 + 0.5 * ring;
      double r = radius[b] * (1 + 0.05 * bench_normal(rng));
      double local[4] = {r * cos(phi), s * length[b], r * sin(phi), 1};
      const double *A = absolutes + 16 * b;
      double *x = base_positions + 4 * v;
      for (int i = 0; i < 4; ++i)
        x[i] = A[4 * i] * local[0] + A[4 * i + 1] * local[1] +
               A[4 * i + 2] * local[2] + A[4 * i + 3] * local[3];
      /* Blend with the parent near the bone's start, with a child near its
         end. */
      double wb = 1, wp = 0, wc = 0;
      if (parents[b] >= 0)
        wp = 0.6 * (1 - s) * (1 - s);
      if (nchildren)
        wc = 0.6 * s * s;
      double total = wb + wp + wc;
      weights[(size_t)b * nv + v] = wb / total;
      if (wp > 0)
        weights[(size_t)parents[b] * nv + v] = wp / total;
      if (wc > 0)
        weights[(size_t)children[v % nchildren] * nv + v] = wc / total;
    }
  }
  free(absolutes);

  for (int t = 0; t < m->ntriangles; ++t) {
    triangles[3 * t] = t + (t % 2);
    triangles[3 * t + 1] = t + 1 - (t % 2);
    triangles[3 * t + 2] = t + 2;
  }

  m->is_mirrored = 0;
  m->parents = parents;
  m->base_relatives = base_relatives;
  m->inverse_base_absolutes = inverse_base_absolutes;
  m->base_positions = base_positions;
  m->weights = weights;
  m->triangles = triangles;
}

/* The residuals in long double at (theta, us) (us ignored when simple). */
static void objective_long(const struct hand *h, const long double *theta,
                           const long double *us, long double *err) {
  if (h->complicated)
    hand_objective_complicated(theta, us, &h->model, &h->data, err);
  else
    hand_objective(theta, &h->model, &h->data, err);
}

static void *setup(const char *size) {
  int complicated;
  if (strstr(size, "variant=simple"))
    complicated = 0;
  else if (strstr(size, "variant=complicated"))
    complicated = 1;
  else
    return NULL;
  long npts = bench_size_param(size, "npts", -1);
  long nverts = bench_size_param(size, "nverts", 544);
  if (npts < 1 || nverts < 3 || nverts > 1000000 || npts > 10000000)
    return NULL;

  struct hand *h = calloc(1, sizeof(struct hand));
  int nb = HAND_NUM_BONES, nv = (int)nverts, n = (int)npts;
  h->complicated = complicated;
  h->model.nbones = nb;
  h->model.nverts = nv;
  h->model.ntriangles = nv - 2;
  h->data.npts = n;
  h->real_storage = malloc(
      (32 * nb + 4 * (size_t)nv + (size_t)nb * nv + 8 * (size_t)n) *
      sizeof(double));
  h->int_storage = malloc((nb + 3 * (size_t)(nv - 2) + n) * sizeof(int));
  bench_rng rng;
  bench_seed(&rng, 22);
  generate_model(h, h->real_storage, h->int_storage, &rng);

  double *points = h->real_storage + 32 * nb + 4 * (size_t)nv + (size_t)nb * nv;
  h->us = points + 3 * (size_t)n;
  h->err = h->us + 2 * (size_t)n;
  int *correspondences = h->int_storage + nb + 3 * (nv - 2);
  h->data.points = points;
  h->data.correspondences = correspondences;

  /* The pose that generates the points: a clearly nonzero global rotation,
     fingers flexed and spread by a few tenths of a radian. */
  long double theta0[HAND_NUM_THETA];
  for (int k = 0; k < HAND_NUM_THETA; ++k)
    theta0[k] = (k < 3 ? 0.5 : k < 6 ? 1.0 : 0.3) * bench_normal(&rng);
  long double *us0 = calloc(2 * (size_t)n, sizeof(long double));
  long double *err = malloc(3 * (size_t)n * sizeof(long double));
  for (int p = 0; p < n; ++p) {
    if (complicated) {
      correspondences[p] = (int)(bench_uniform(&rng) * h->model.ntriangles);
      double a = bench_uniform(&rng), b = bench_uniform(&rng);
      if (a + b > 1) {
        a = 1 - a;
        b = 1 - b;
      }
      us0[2 * p] = a;
      us0[2 * p + 1] = b;
    } else {
      correspondences[p] = (int)(bench_uniform(&rng) * nv);
    }
  }
  /* With zero points the residuals are minus the model's points. */
  memset(points, 0, 3 * (size_t)n * sizeof(double));
  objective_long(h, theta0, us0, err);
  for (int i = 0; i < 3 * n; ++i)
    points[i] = (double)-err[i] + 0.02 * bench_normal(&rng);

  for (int k = 0; k < HAND_NUM_THETA; ++k)
    h->theta[k] = (double)theta0[k] + 0.05 * bench_normal(&rng);
  for (int i = 0; i < 2 * n; ++i)
    h->us[i] = (double)us0[i] + (complicated ? 0.02 * bench_normal(&rng) : 0);
  free(us0);
  free(err);
  return h;
}

static void teardown(void *ctx) {
  struct hand *h = ctx;
  free(h->real_storage);
  free(h->int_storage);
  free(h);
}

static size_t deriv_len(void *ctx) {
  struct hand *h = ctx;
  return 3 * (size_t)h->data.npts * hand_num_columns(h);
}

static void primal(void *ctx) { hand_primal_opt(ctx); }
static void hand(void *ctx, double *J) { hand_jacobian_hand(ctx, J); }
static void adjoint(void *ctx, double *J) { hand_jacobian_adjoint_opt(ctx, J); }
static void ref(void *ctx, double *J) { hand_jacobian_adjoint_ref(ctx, J); }

/* Entry e checks column e mod ncols (so every parameter kind, the u columns
   included, is visited), in the row of largest magnitude among a few rows
   from a spread starting point: most entries of a finger's column are zero
   (vertices that finger does not move), which would test little. */
static double check_fd(void *ctx, const double *J, int max_entries) {
  struct hand *h = ctx;
  int n = h->data.npts, rows = 3 * n, ncols = hand_num_columns(h);
  int offset = h->complicated ? 2 : 0;
  long double theta[HAND_NUM_THETA];
  long double *us = malloc(2 * (size_t)n * sizeof(long double));
  long double *up = malloc(6 * (size_t)n * sizeof(long double));
  long double *down = up + 3 * (size_t)n;
  for (int k = 0; k < HAND_NUM_THETA; ++k)
    theta[k] = h->theta[k];
  for (int i = 0; i < 2 * n; ++i)
    us[i] = h->us[i];

  double worst = 0;
  for (int e = 0; e < max_entries; ++e) {
    int col = e % ncols;
    const double *column = J + (size_t)col * rows;
    int start = (int)((unsigned long long)e * 2654435761u % rows), row = start;
    for (int i = 0; i < 16; ++i) {
      int r = (start + i) % rows;
      if (fabs(column[r]) > fabs(column[row]))
        row = r;
    }
    long double *x =
        col < offset ? &us[2 * (row / 3) + col] : &theta[col - offset];
    long double saved = *x, step = 1e-6L * fmaxl(1, fabsl(saved));
    *x = saved + step;
    objective_long(h, theta, us, up);
    *x = saved - step;
    objective_long(h, theta, us, down);
    *x = saved;
    double fd = (double)((up[row] - down[row]) / (2 * step));
    worst = fmax(worst, bench_fd_error(fd, column[row]));
  }
  free(us);
  free(up);
  return worst;
}

static const char *const sizes[] = {
    "variant=simple,npts=100",      "variant=simple,npts=1600",
    "variant=simple,npts=12800",    "variant=complicated,npts=100",
    "variant=complicated,npts=1600", "variant=complicated,npts=12800",
    NULL};

const struct bench_problem bench_problem = {
    .name = "hand",
    .sizes = sizes,
    /* The complicated variant: its objective skins the model as the simple
       one does and adds the u columns; the simple objective's own sweeps
       are checked by the full run's sizes. */
    .quick_size = "variant=complicated,npts=10,nverts=40",
    .setup = setup,
    .teardown = teardown,
    .deriv_len = deriv_len,
    .primal = primal,
    .hand = hand,
    .adjoint = adjoint,
    .ref = ref,
    .check_fd = check_fd,
};
