/*===- ode.h - The ODE benchmark's shared declarations --------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Parameters: the initial state y0, the damping a and the forcing F, n each; *|
|* the derivative is laid out as [dy0, da, dF].                              *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_ODE_H
#define ADJOINT_BENCH_ODE_H

#include "bench.h"

#define ODE_CONCAT2(a, b) a##_##b
#define ODE_CONCAT(a, b) ODE_CONCAT2(a, b)

struct ode {
  int n, steps;
  double dt;
  double *y0, *a, *F; /* n each, contiguous from y0 */
  double loss;
};

double ode_loss_primal_opt(struct ode *p);
void ode_grad_adjoint_opt(struct ode *p, double *deriv);
void ode_grad_adjoint_ref(struct ode *p, double *deriv);
void ode_grad_hand(struct ode *p, double *deriv);

#endif /* ADJOINT_BENCH_ODE_H */
