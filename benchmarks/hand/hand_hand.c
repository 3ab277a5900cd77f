/*===- hand_hand.c - The hand Jacobian written by hand --------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Forward differentiation over the small bone tree, then per vertex:        *|
|*                                                                            *|
|*  1. Per bone, the rotation of its Euler angles and that rotation's         *|
|*     derivative with respect to each angle; the posed relatives,            *|
|*     absolutes and skinning transforms as in the primal.                    *|
|*  2. Per finger parameter (a bone a and one of its angles), the derivative  *|
|*     of the absolutes: at a it is abs(parent) * base_rel(a) * dE, below a  *|
|*     it is carried down the chain as d abs(b) = d abs(parent) * rel(b),    *|
|*     and it is zero elsewhere. Each nonzero one, turned into a skinning    *|
|*     transform and premultiplied by the global rotation, is a 3x4 matrix   *|
|*     M(k, b): vertex v moves by sum_b w(b, v) M(k, b) x_v. A parameter of  *|
|*     a finger's first bone reaches four bones, the next two three and two. *|
|*  3. Per vertex that some point uses (once, however many points share it),  *|
|*     its skinned position and the 3 x 26 derivative of its posed position: *|
|*     the global rotation's derivative times the skinned position, the      *|
|*     identity for the translation, the sums of step 2 for the fingers.     *|
|*  4. Per point, its rows: minus its vertex's derivative (simple), or minus  *|
|*     the barycentric combination of its triangle's and the differences of  *|
|*     the triangle's posed vertices for the u columns (complicated).        *|
|*                                                                            *|
|* The scale row of ADBench's pose is constant (ones), so it is left out.    *|
\*===----------------------------------------------------------------------===*/
#include "hand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* out = a * b, row-major 3x3. */
static void mul3(const double *a, const double *b, double *out) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] +
                       a[3 * i + 2] * b[6 + j];
}

/* out = a * b, row-major 4x4. */
static void mul4(const double *a, const double *b, double *out) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j] +
                       a[4 * i + 2] * b[8 + j] + a[4 * i + 3] * b[12 + j];
}

/* out = base * [E 0; 0 1] for a 3x3 E; with translation (the bone's posed
   relative) or without (its derivative, when E is a rotation's). */
static void mul4_rotation(const double *base, const double *E,
                          int translation, double *out) {
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j)
      out[4 * i + j] = base[4 * i] * E[j] + base[4 * i + 1] * E[3 + j] +
                       base[4 * i + 2] * E[6 + j];
    out[4 * i + 3] = translation ? base[4 * i + 3] : 0;
  }
}

/* E = Rz(z) Ry(y) Rx(x) for angles stored x, z, y, and dE[a] its
   derivative with respect to angle a of that order. */
static void euler_rotation(const double *xzy, double *E, double dE[3][9]) {
  double cx = cos(xzy[0]), sx = sin(xzy[0]);
  double cz = cos(xzy[1]), sz = sin(xzy[1]);
  double cy = cos(xzy[2]), sy = sin(xzy[2]);
  double Rx[9] = {1, 0, 0, 0, cx, -sx, 0, sx, cx};
  double dRx[9] = {0, 0, 0, 0, -sx, -cx, 0, cx, -sx};
  double Ry[9] = {cy, 0, sy, 0, 1, 0, -sy, 0, cy};
  double dRy[9] = {-sy, 0, cy, 0, 0, 0, -cy, 0, -sy};
  double Rz[9] = {cz, -sz, 0, sz, cz, 0, 0, 0, 1};
  double dRz[9] = {-sz, -cz, 0, cz, -sz, 0, 0, 0, 0};
  double zy[9], t[9];
  mul3(Rz, Ry, zy);
  mul3(zy, Rx, E);
  mul3(zy, dRx, dE[0]);
  mul3(dRz, Ry, t);
  mul3(t, Rx, dE[1]);
  mul3(Rz, dRy, t);
  mul3(t, Rx, dE[2]);
}

/* Rodrigues' R = c I + s [u]x + (1 - c) u u^T for u = w / |w|, c and s the
   cosine and sine of |w|, and dR[j] its derivative with respect to w_j
   (d|w| = u_j, du = (e_j - u u_j) / |w|). The identity, with zero
   derivative, below the primal's threshold. */
static void angle_axis_rotation(const double *w, double *R, double dR[3][9]) {
  double norm = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (norm < 1e-4) {
    for (int i = 0; i < 9; ++i) {
      R[i] = i == 0 || i == 4 || i == 8;
      dR[0][i] = dR[1][i] = dR[2][i] = 0;
    }
    return;
  }
  double u[3] = {w[0] / norm, w[1] / norm, w[2] / norm};
  double s = sin(norm), c = cos(norm);
  double K[9] = {0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      R[3 * a + b] = (a == b) * c + s * K[3 * a + b] + (1 - c) * u[a] * u[b];
  for (int j = 0; j < 3; ++j) {
    double du[3];
    for (int i = 0; i < 3; ++i)
      du[i] = ((i == j) - u[i] * u[j]) / norm;
    double dc = -s * u[j], ds = c * u[j];
    double dK[9] = {0, -du[2], du[1], du[2], 0, -du[0], -du[1], du[0], 0};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        dR[j][3 * a + b] = (a == b) * dc + ds * K[3 * a + b] +
                           s * dK[3 * a + b] - dc * u[a] * u[b] +
                           (1 - c) * (du[a] * u[b] + u[a] * du[b]);
  }
}

/* The 3x4 M * x for a homogeneous x. */
static void apply34(const double *M, const double *x, double *out) {
  for (int i = 0; i < 3; ++i)
    out[i] = M[4 * i] * x[0] + M[4 * i + 1] * x[1] + M[4 * i + 2] * x[2] +
             M[4 * i + 3] * x[3];
}

/* At most: 5 fingers x (2 x 4 + 3 + 2) (parameter, bone) pairs. */
enum { MaxPairs = HAND_NUM_FINGERS * 13 };

void hand_jacobian_hand(struct hand *h, double *J) {
  const struct hand_model *m = &h->model;
  const struct hand_data *data = &h->data;
  int nb = m->nbones, nv = m->nverts, npts = data->npts;
  size_t rows = 3 * (size_t)npts;
  const double *theta = h->theta;

  /* ADBench's pose layout: the bone and the angle (0 flexion, 1
     abduction) each finger parameter sets. */
  int site_bone[HAND_NUM_THETA], site_angle[HAND_NUM_THETA];
  double angles[HAND_NUM_BONES][3] = {{0}};
  for (int f = 0, k = 6; f < HAND_NUM_FINGERS; ++f)
    for (int j = 0; j < 3; ++j) {
      int bone = 2 + 4 * f + j;
      for (int a = 0; a < (j == 0 ? 2 : 1); ++a, ++k) {
        site_bone[k] = bone;
        site_angle[k] = a;
        angles[bone][a] = theta[k];
      }
    }

  /* 1. Rotations, relatives, absolutes, skinning transforms (3x4). */
  double E[HAND_NUM_BONES][9], dE[HAND_NUM_BONES][3][9];
  double rel[HAND_NUM_BONES][16], absolute[HAND_NUM_BONES][16];
  double T[HAND_NUM_BONES][16];
  for (int b = 0; b < nb; ++b) {
    euler_rotation(angles[b], E[b], dE[b]);
    mul4_rotation(m->base_relatives + 16 * b, E[b], 1, rel[b]);
    if (m->parents[b] < 0)
      memcpy(absolute[b], rel[b], sizeof(absolute[b]));
    else
      mul4(absolute[m->parents[b]], rel[b], absolute[b]);
    mul4(absolute[b], m->inverse_base_absolutes + 16 * b, T[b]);
  }

  /* The global rotation L = R * mirror (a vertex is L s + t for its
     skinned position s) and R's derivatives. */
  double R[9], dR[3][9], L[9];
  angle_axis_rotation(theta, R, dR);
  double mirror = m->is_mirrored ? -1 : 1;
  for (int i = 0; i < 3; ++i) {
    L[3 * i] = R[3 * i] * mirror;
    L[3 * i + 1] = R[3 * i + 1];
    L[3 * i + 2] = R[3 * i + 2];
  }

  /* 2. M(k, b) = L * d abs(b) / d theta_k * inverse_base_absolute(b). */
  int npairs = 0, pair_param[MaxPairs], pair_bone[MaxPairs];
  double pair_M[MaxPairs][12];
  for (int k = 6; k < HAND_NUM_THETA; ++k) {
    int a = site_bone[k];
    double dabs[HAND_NUM_BONES][16], drel[16], dT[16];
    int reached[HAND_NUM_BONES] = {0};
    mul4_rotation(m->base_relatives + 16 * a, dE[a][site_angle[k]], 0, drel);
    if (m->parents[a] < 0)
      memcpy(dabs[a], drel, sizeof(drel));
    else
      mul4(absolute[m->parents[a]], drel, dabs[a]);
    reached[a] = 1;
    for (int b = a; b < nb; ++b) {
      if (b > a) {
        if (m->parents[b] < 0 || !reached[m->parents[b]])
          continue;
        mul4(dabs[m->parents[b]], rel[b], dabs[b]);
        reached[b] = 1;
      }
      mul4(dabs[b], m->inverse_base_absolutes + 16 * b, dT);
      double *M = pair_M[npairs];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
          M[4 * i + j] = L[3 * i] * dT[j] + L[3 * i + 1] * dT[4 + j] +
                         L[3 * i + 2] * dT[8 + j];
      pair_param[npairs] = k;
      pair_bone[npairs++] = b;
    }
  }

  /* 3. The used vertices get a slot: their posed position and its
     derivative with respect to each parameter, stored per parameter
     (dposed[k] holds 3 entries per slot) so that step 4, which writes the
     Jacobian a column at a time, reads a small contiguous table. */
  int per_point = h->complicated ? 3 : 1;
  int *slot = malloc(nv * sizeof(int));
  int *used = malloc(nv * sizeof(int));
  int *point_slots = malloc((size_t)npts * per_point * sizeof(int));
  for (int v = 0; v < nv; ++v)
    slot[v] = -1;
  int nused = 0;
  for (int p = 0; p < npts; ++p) {
    int c = data->correspondences[p];
    for (int i = 0; i < per_point; ++i) {
      int v = h->complicated ? m->triangles[3 * c + i] : c;
      if (slot[v] < 0) {
        slot[v] = nused;
        used[nused++] = v;
      }
      point_slots[per_point * p + i] = slot[v];
    }
  }
  size_t stride = 3 * (size_t)nused;
  double *posed = malloc(stride * (1 + HAND_NUM_THETA) * sizeof(double));
  double *dposed = posed + stride;
  for (int s = 0; s < nused; ++s) {
    int v = used[s];
    const double *x = m->base_positions + 4 * v;
    double skinned[3] = {0, 0, 0}, moved[3];
    for (int b = 0; b < nb; ++b) {
      double w = m->weights[(size_t)b * nv + v];
      apply34(T[b], x, moved);
      for (int i = 0; i < 3; ++i)
        skinned[i] += w * moved[i];
    }
    skinned[0] *= mirror;
    double dy[HAND_NUM_THETA][3] = {{0}};
    for (int i = 0; i < 3; ++i) {
      posed[3 * s + i] = R[3 * i] * skinned[0] + R[3 * i + 1] * skinned[1] +
                         R[3 * i + 2] * skinned[2] + theta[3 + i];
      for (int j = 0; j < 3; ++j)
        dy[j][i] = dR[j][3 * i] * skinned[0] + dR[j][3 * i + 1] * skinned[1] +
                   dR[j][3 * i + 2] * skinned[2];
      dy[3 + i][i] = 1;
    }
    for (int q = 0; q < npairs; ++q) {
      double w = m->weights[(size_t)pair_bone[q] * nv + v];
      apply34(pair_M[q], x, moved);
      for (int i = 0; i < 3; ++i)
        dy[pair_param[q]][i] += w * moved[i];
    }
    for (int k = 0; k < HAND_NUM_THETA; ++k)
      for (int i = 0; i < 3; ++i)
        dposed[k * stride + 3 * s + i] = dy[k][i];
  }

  /* 4. The Jacobian a column at a time (writing a row's 26 or 28 entries
     together would stride through the whole Jacobian). */
  if (!h->complicated) {
    for (int k = 0; k < HAND_NUM_THETA; ++k) {
      const double *d = dposed + k * stride;
      double *col = J + k * rows;
      for (int p = 0; p < npts; ++p)
        for (int i = 0; i < 3; ++i)
          col[3 * p + i] = -d[3 * point_slots[p] + i];
    }
  } else {
    for (int p = 0; p < npts; ++p) {
      const int *ps = point_slots + 3 * p;
      for (int i = 0; i < 3; ++i) {
        double y2 = posed[3 * ps[2] + i];
        J[3 * p + i] = y2 - posed[3 * ps[0] + i];
        J[rows + 3 * p + i] = y2 - posed[3 * ps[1] + i];
      }
    }
    for (int k = 0; k < HAND_NUM_THETA; ++k) {
      const double *d = dposed + k * stride;
      double *col = J + (2 + k) * rows;
      for (int p = 0; p < npts; ++p) {
        const int *ps = point_slots + 3 * p;
        double u0 = h->us[2 * p], u1 = h->us[2 * p + 1], u2 = 1 - u0 - u1;
        for (int i = 0; i < 3; ++i)
          col[3 * p + i] = -(u0 * d[3 * ps[0] + i] + u1 * d[3 * ps[1] + i] +
                             u2 * d[3 * ps[2] + i]);
      }
    }
  }
  free(posed);
  free(point_slots);
  free(used);
  free(slot);
}
