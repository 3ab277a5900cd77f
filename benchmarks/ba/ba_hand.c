/*===- ba_hand.c - The BA Jacobian written by hand ------------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Each observation's 2 x 15 block from the chain rule written out: the       *|
|* forward quantities (rotation matrix, projection, distortion factor) are    *|
|* computed once, then each row pulls the gradient of its residual with       *|
|* respect to Xcam, g, back to the parameters.                                *|
|*                                                                            *|
|* With theta = |r|, Rodrigues' formula reads                                 *|
|*   Xcam = cos(theta) Y + a (r x Y) + b (r.Y) r,  Y = X - C,                 *|
|*   a = sin(theta) / theta,  b = (1 - cos(theta)) / theta^2,                 *|
|* so dXcam/dY is the rotation matrix R and, differentiating a and b          *|
|* through theta (d theta / dr = r / theta),                                  *|
|*   g^T dXcam/dr = (g.v) r + a (Y x g) + b ((g.r) Y + (r.Y) g),              *|
|*   v = (-sin(theta) Y + a' (r x Y) + b' (r.Y) r) / theta.                   *|
|* The first-order formula Y + r x Y of a zero r is the case a = 1, b = 0,    *|
|* v = 0.                                                                     *|
\*===----------------------------------------------------------------------===*/
#include "ba.h"

#include <math.h>

static double dot(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The 2 x 15 block of one observation (layout in ba.h). */
static void block(const double *cam, const double *X, double w,
                  const double *feat, double *J) {
  const double *r = cam + BA_ROT, *C = cam + BA_CENTER,
               *x0 = cam + BA_PRINCIPAL, *kappa = cam + BA_KAPPA;
  double f = cam[BA_FOCAL];
  double Y[3] = {X[0] - C[0], X[1] - C[1], X[2] - C[2]};

  /* Rotation: Xcam, R and the coefficients of the rotation-vector
     derivative. */
  double theta2 = dot(r, r), rY = dot(r, Y), rxY[3];
  cross(r, Y, rxY);
  double a = 1, b = 0, v[3] = {0, 0, 0}, c = 1;
  if (theta2 != 0) {
    double theta = sqrt(theta2), itheta = 1 / theta, s = sin(theta);
    c = cos(theta);
    a = s * itheta;
    b = (1 - c) * itheta * itheta;
    /* a' = (cos(theta) - a) / theta, b' = (a - 2 b) / theta */
    double da = (c - a) * itheta, db = (a - 2 * b) * itheta;
    for (int i = 0; i < 3; ++i)
      v[i] = (-s * Y[i] + da * rxY[i] + db * rY * r[i]) * itheta;
  }
  double Xcam[3], R[3][3];
  for (int i = 0; i < 3; ++i) {
    Xcam[i] = c * Y[i] + a * rxY[i] + b * rY * r[i];
    for (int j = 0; j < 3; ++j)
      R[i][j] = b * r[i] * r[j] + (i == j ? c : 0);
  }
  /* R += a [r]_x */
  R[0][1] -= a * r[2], R[0][2] += a * r[1];
  R[1][0] += a * r[2], R[1][2] -= a * r[0];
  R[2][0] -= a * r[1], R[2][1] += a * r[0];

  /* Projection and distortion: proj = p L f + x0 with p = Xcam[0:2] / z,
     L = 1 + k0 rsq + k1 rsq^2, so dproj/dp = f (L I + dL p p^T) with
     dL = 2 (k0 + 2 k1 rsq). */
  double iz = 1 / Xcam[2];
  double pt[2] = {Xcam[0] * iz, Xcam[1] * iz};
  double rsq = pt[0] * pt[0] + pt[1] * pt[1];
  double L = 1 + kappa[0] * rsq + kappa[1] * rsq * rsq;
  double dL = 2 * (kappa[0] + 2 * kappa[1] * rsq);
  double wf = w * f;

  for (int k = 0; k < 2; ++k) {
    double *row = J + BA_ROW * k;
    /* q = d err_k / dp, then g = d err_k / dXcam through the division. */
    double q[2] = {wf * dL * pt[k] * pt[0], wf * dL * pt[k] * pt[1]};
    q[k] += wf * L;
    double g[3] = {q[0] * iz, q[1] * iz, -(q[0] * pt[0] + q[1] * pt[1]) * iz};

    double gv = dot(g, v), gr = dot(g, r), Yxg[3];
    cross(Y, g, Yxg);
    for (int i = 0; i < 3; ++i) {
      row[BA_ROT + i] = gv * r[i] + a * Yxg[i] + b * (gr * Y[i] + rY * g[i]);
      /* dXcam/dX = R, dXcam/dC = -R. */
      double gR = g[0] * R[0][i] + g[1] * R[1][i] + g[2] * R[2][i];
      row[BA_ROW_POINT + i] = gR;
      row[BA_CENTER + i] = -gR;
    }
    row[BA_FOCAL] = w * pt[k] * L;
    row[BA_PRINCIPAL] = k == 0 ? w : 0;
    row[BA_PRINCIPAL + 1] = k == 1 ? w : 0;
    row[BA_KAPPA] = wf * pt[k] * rsq;
    row[BA_KAPPA + 1] = wf * pt[k] * rsq * rsq;
    row[BA_ROW_WEIGHT] = pt[k] * L * f + x0[k] - feat[k];
  }
}

void ba_jacobian_hand(struct ba *b, double *J) {
  int p = b->p;
  for (int i = 0; i < p; ++i)
    block(b->cams + BA_CAM_PARAMS * b->obs[2 * i], b->X + 3 * b->obs[2 * i + 1],
          b->w[i], b->feats + 2 * i, J + (size_t)BA_BLOCK * i);
  /* d(1 - w^2)/dw */
  double *wJ = J + (size_t)BA_BLOCK * p;
  for (int i = 0; i < p; ++i)
    wJ[i] = -2 * b->w[i];
}
