/*===- lstm_hand.c - The LSTM gradient written by hand --------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Backpropagation through time: a forward sweep that records, for every     *|
|* character and layer, the new hidden and cell states, the four gate values *|
|* and tanh of the cell, and for every character the softmax of the          *|
|* prediction; then a backward sweep over the characters, last first, that   *|
|* carries the adjoints of every layer's hidden and cell state to the        *|
|* previous character and pulls the adjoint of each layer's output down to   *|
|* its input. Every derivative of a sigmoid or tanh is formed from the value *|
|* recorded in the forward sweep, so the backward sweep calls no             *|
|* transcendental function.                                                  *|
\*===----------------------------------------------------------------------===*/
#include "lstm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* What the forward sweep records for one character and layer, b each. */
enum { Hidden, Cell, Forget, Ingate, Outgate, Change, TanhCell, NumRecorded };

void lstm_grad_hand(struct lstm *p, double *deriv) {
  int l = p->l, b = p->b, steps = p->c - 1;
  const double *main_params = p->main_params, *sequence = p->sequence;
  const double *in_weight = p->extra_params, *out_weight = in_weight + b,
               *out_bias = in_weight + 2 * b;
  /* Per character: l frames of NumRecorded b, then the softmax (b). */
  size_t frame = (size_t)NumRecorded * b, stride = l * frame + b;
  double *tape = malloc(steps * stride * sizeof(double));
  /* The scaled character, then the adjoint carries of every layer's hidden
     and cell state, then the adjoint flowing down through the layers. */
  double *work = malloc((2 * l + 2) * b * sizeof(double));
  double *input = work, *hidden_bar = work + b, *cell_bar = hidden_bar + l * b,
         *down_bar = cell_bar + l * b;

  for (int t = 0; t < steps; ++t) {
    const double *character = sequence + (size_t)b * t;
    double *record = tape + t * stride;
    for (int i = 0; i < b; ++i)
      input[i] = character[i] * in_weight[i];
    const double *x = input;
    for (int k = 0; k < l; ++k) {
      const double *w = main_params + 8 * b * k, *bias = w + 4 * b;
      const double *prev = t ? record - stride + k * frame : p->state0 + 2 * b * k;
      const double *hprev = prev + Hidden * b, *cprev = prev + Cell * b;
      double *r = record + k * frame;
      for (int i = 0; i < b; ++i) {
        double f = sigmoid(x[i] * w[i] + bias[i]);
        double ig = sigmoid(hprev[i] * w[b + i] + bias[b + i]);
        double o = sigmoid(x[i] * w[2 * b + i] + bias[2 * b + i]);
        double g = tanh(hprev[i] * w[3 * b + i] + bias[3 * b + i]);
        double cell = cprev[i] * f + ig * g, th = tanh(cell);
        r[Forget * b + i] = f;
        r[Ingate * b + i] = ig;
        r[Outgate * b + i] = o;
        r[Change * b + i] = g;
        r[Cell * b + i] = cell;
        r[TanhCell * b + i] = th;
        r[Hidden * b + i] = o * th;
      }
      x = r + Hidden * b;
    }
    /* softmax(ypred), shifted by the largest score like the primal. */
    double *softmax = record + l * frame;
    double largest = -INFINITY, sum = 0;
    for (int i = 0; i < b; ++i) {
      softmax[i] = out_weight[i] * x[i] + out_bias[i];
      largest = fmax(largest, softmax[i]);
    }
    for (int i = 0; i < b; ++i)
      sum += softmax[i] = exp(softmax[i] - largest);
    for (int i = 0; i < b; ++i)
      softmax[i] /= sum;
  }

  memset(deriv, 0, (8 * l + 3) * b * sizeof(double));
  memset(hidden_bar, 0, 2 * l * b * sizeof(double));
  double *main_bar = deriv, *in_weight_bar = deriv + 8 * l * b,
         *out_weight_bar = in_weight_bar + b, *out_bias_bar = in_weight_bar + 2 * b;
  /* The adjoint of each log-softmax entry is -next[i] / count. */
  double scale = -1.0 / ((double)steps * b);
  for (int t = steps - 1; t >= 0; --t) {
    const double *character = sequence + (size_t)b * t, *next = character + b;
    const double *record = tape + t * stride, *softmax = record + l * frame;
    /* Through ynorm = ypred - logsumexp(ypred) and the output layer. */
    double next_sum = 0;
    for (int i = 0; i < b; ++i)
      next_sum += next[i];
    const double *top = record + (l - 1) * frame + Hidden * b;
    for (int i = 0; i < b; ++i) {
      double ypred_bar = scale * (next[i] - softmax[i] * next_sum);
      out_weight_bar[i] += ypred_bar * top[i];
      out_bias_bar[i] += ypred_bar;
      down_bar[i] = ypred_bar * out_weight[i];
    }
    for (int k = l - 1; k >= 0; --k) {
      const double *w = main_params + 8 * b * k;
      double *w_bar = main_bar + 8 * b * k, *bias_bar = w_bar + 4 * b;
      const double *r = record + k * frame;
      const double *prev = t ? r - stride : p->state0 + 2 * b * k;
      const double *hprev = prev + Hidden * b, *cprev = prev + Cell * b;
      const double *below = k ? r - frame + Hidden * b : NULL;
      double *h_bar = hidden_bar + k * b, *c_bar = cell_bar + k * b;
      for (int i = 0; i < b; ++i) {
        double x = k ? below[i] : character[i] * in_weight[i];
        double f = r[Forget * b + i], ig = r[Ingate * b + i];
        double o = r[Outgate * b + i], g = r[Change * b + i];
        double th = r[TanhCell * b + i];
        /* hidden = o tanh(cell), cell = cprev f + ig g. */
        double hb = down_bar[i] + h_bar[i];
        double cb = c_bar[i] + hb * o * (1 - th * th);
        /* The adjoints of the gates' arguments. */
        double zf = cb * cprev[i] * f * (1 - f);
        double zi = cb * g * ig * (1 - ig);
        double zo = hb * th * o * (1 - o);
        double zg = cb * ig * (1 - g * g);
        w_bar[i] += zf * x;
        w_bar[b + i] += zi * hprev[i];
        w_bar[2 * b + i] += zo * x;
        w_bar[3 * b + i] += zg * hprev[i];
        bias_bar[i] += zf;
        bias_bar[b + i] += zi;
        bias_bar[2 * b + i] += zo;
        bias_bar[3 * b + i] += zg;
        c_bar[i] = cb * f;
        h_bar[i] = zi * w[b + i] + zg * w[3 * b + i];
        down_bar[i] = zf * w[i] + zo * w[2 * b + i];
      }
    }
    for (int i = 0; i < b; ++i)
      in_weight_bar[i] += down_bar[i] * character[i];
  }
  free(tape);
  free(work);
}
