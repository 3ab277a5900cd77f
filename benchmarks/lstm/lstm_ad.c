/*===- lstm_ad.c - The LSTM primal and its gradient from Adjoint ----------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h).           *|
|*                                                                            *|
|* The objective updates the state it is given, so every evaluation starts   *|
|* from a fresh copy of the initial state; the state is duplicated with a    *|
|* zeroed scratch shadow (the final state is not an output: its seed is 0)   *|
|* and its gradient is not part of the derivative.                           *|
\*===----------------------------------------------------------------------===*/
#include "lstm.h"

#include <math.h>
#include <string.h>

#define REAL double
#include "lstm_primal.inc"

double BENCH_VARIANT(lstm_loss_primal)(struct lstm *p) {
  memcpy(p->state, p->state0, 2 * p->l * p->b * sizeof(double));
  return lstm_objective(p->l, p->c, p->b, p->main_params, p->extra_params,
                        p->state, p->sequence);
}

void BENCH_VARIANT(lstm_grad_adjoint)(struct lstm *p, double *deriv) {
  int l = p->l, b = p->b;
  memcpy(p->state, p->state0, 2 * l * b * sizeof(double));
  memset(p->dstate, 0, 2 * l * b * sizeof(double));
  memset(deriv, 0, (8 * l + 3) * b * sizeof(double));
  __enzyme_autodiff((void *)lstm_objective, enzyme_const, l, enzyme_const,
                    p->c, enzyme_const, b, enzyme_dup, p->main_params, deriv,
                    enzyme_dup, p->extra_params, deriv + 8 * l * b,
                    enzyme_dup, p->state, p->dstate, enzyme_const,
                    p->sequence);
}
