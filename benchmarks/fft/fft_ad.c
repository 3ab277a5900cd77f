/*===- fft_ad.c - The FFT primal and its gradient from Adjoint ------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h).           *|
\*===----------------------------------------------------------------------===*/
#include "fft.h"

#include <math.h>
#include <string.h>

#define REAL double
#define FFT_PREFIX fft
#define FFT_MATH(f) f
#include "fft_primal.inc"

double BENCH_VARIANT(fft_loss_primal)(struct fft *p) {
  return p->recursive ? fft_loss_rec(p->x, p->weight, p->n)
                      : fft_loss_iter(p->x, p->weight, p->n);
}

/* One exported gradient per transform rather than one that picks with an
   if: at -O1 and above SimplifyCFG merges two __enzyme_autodiff calls that
   differ only in the function into one call on a select of the two, which
   the plugin then rejects as not a function known at compile time. */
void BENCH_VARIANT(fft_grad_adjoint_rec)(struct fft *p, double *deriv) {
  memset(deriv, 0, 2 * p->n * sizeof(double));
  __enzyme_autodiff((void *)fft_loss_rec, enzyme_dup, p->x, deriv,
                    enzyme_const, p->weight, enzyme_const, p->n);
}

void BENCH_VARIANT(fft_grad_adjoint_iter)(struct fft *p, double *deriv) {
  memset(deriv, 0, 2 * p->n * sizeof(double));
  __enzyme_autodiff((void *)fft_loss_iter, enzyme_dup, p->x, deriv,
                    enzyme_const, p->weight, enzyme_const, p->n);
}
