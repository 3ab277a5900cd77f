/*===- fft_hand.c - The FFT gradient written by hand ----------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* For a real L of complex variables write zbar = dL/dRe z + i dL/dIm z.      *|
|* Then dL = sum_k Re(conj(Xbar_k) dX_k), and for the linear X = F x with     *|
|* F_kj = exp(-2 pi i j k / n)                                                *|
|*   dL = Re sum_j conj(sum_k conj(F_kj) Xbar_k) dx_j,                        *|
|* so xbar = F^H Xbar, the unnormalized inverse DFT of Xbar. Since F is       *|
|* symmetric, F^H y = conj(F conj(y)): the same forward transform serves,     *|
|* applied to the conjugated adjoint. For L = sum_k w_k log(1 + |X_k|^2),     *|
|*   Xbar_k = 2 w_k X_k / (1 + |X_k|^2).                                      *|
|* So: copy x, transform it, overwrite X with conj(Xbar), transform again,    *|
|* conjugate. Two FFTs and two O(n) passes, no logarithms; the derivative     *|
|* array itself is the work buffer.                                           *|
\*===----------------------------------------------------------------------===*/
#include "fft.h"

#include <math.h>
#include <string.h>

#define REAL double
#define FFT_PREFIX hand
#define FFT_MATH(f) f
#include "fft_transform.inc"

void fft_grad_hand(struct fft *p, double *deriv) {
  int n = p->n;
  const double *weight = p->weight;
  void (*transform)(double *, int) = p->recursive ? hand_fft_rec : hand_fft_iter;
  memcpy(deriv, p->x, 2 * n * sizeof(double));
  transform(deriv, n);
  for (int k = 0; k < n; ++k) {
    double re = deriv[2 * k], im = deriv[2 * k + 1];
    double scale = 2 * weight[k] / (1 + re * re + im * im);
    deriv[2 * k] = scale * re;
    deriv[2 * k + 1] = -scale * im;
  }
  transform(deriv, n);
  for (int j = 0; j < n; ++j)
    deriv[2 * j + 1] = -deriv[2 * j + 1];
}
