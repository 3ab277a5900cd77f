/*===- fft.h - The FFT benchmark's shared declarations --------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Parameters: a complex signal of n points, interleaved (re, im), so 2n      *|
|* doubles; the derivative has the same layout. The spectral weights are      *|
|* constants.                                                                 *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_FFT_H
#define ADJOINT_BENCH_FFT_H

#include "bench.h"

#define FFT_CONCAT2(a, b) a##_##b
#define FFT_CONCAT(a, b) FFT_CONCAT2(a, b)

struct fft {
  int n;          /* complex points, a power of two */
  int recursive;  /* which transform: algo=rec (1) or algo=iter (0) */
  double *x;      /* 2n, interleaved re, im */
  double *weight; /* n, one per frequency */
  double loss;
};

double fft_loss_primal_opt(struct fft *p);
void fft_grad_adjoint_rec_opt(struct fft *p, double *deriv);
void fft_grad_adjoint_iter_opt(struct fft *p, double *deriv);
void fft_grad_adjoint_rec_ref(struct fft *p, double *deriv);
void fft_grad_adjoint_iter_ref(struct fft *p, double *deriv);
void fft_grad_hand(struct fft *p, double *deriv);

#endif /* ADJOINT_BENCH_FFT_H */
