/*===- lstm.h - The LSTM benchmark's shared declarations ------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* ADBench's LSTM loss: l layers of an elementwise ("diagonal") LSTM of      *|
|* width b run over c characters of b bits each, predicting every next one.  *|
|*                                                                            *|
|* main_params, 8 b per layer: the weights [wf wi wo wc] then the biases      *|
|* [bf bi bo bc] of the forget gate (from the layer's input), the input gate *|
|* (from the hidden state), the output gate (from the input) and the          *|
|* candidate change (from the hidden state), b each.                          *|
|* extra_params, 3 b: the input weight, the output weight, the output bias.  *|
|* state, 2 b per layer: the hidden state then the cell state.               *|
|* The derivative is the gradient laid out as [main_params, extra_params].   *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_LSTM_H
#define ADJOINT_BENCH_LSTM_H

#include "bench.h"

struct lstm {
  int l, c, b;
  double *main_params;  /* 8 l b, followed by extra_params */
  double *extra_params; /* 3 b */
  double *state0;       /* 2 l b: the initial state of every evaluation */
  double *state;        /* 2 l b: the copy an evaluation updates */
  double *dstate;       /* 2 l b: its shadow for Adjoint (scratch) */
  double *sequence;     /* c b */
  double loss;
};

double lstm_loss_primal_opt(struct lstm *p);
void lstm_grad_adjoint_opt(struct lstm *p, double *deriv);
void lstm_grad_adjoint_ref(struct lstm *p, double *deriv);
void lstm_grad_hand(struct lstm *p, double *deriv);

#endif /* ADJOINT_BENCH_LSTM_H */
