/*===- ode_ad.c - The ODE primal and its gradient from Adjoint ------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* The only file of the problem compiled with the plugin (bench.h).           *|
\*===----------------------------------------------------------------------===*/
#include "ode.h"

#include <string.h>

#define REAL double
#define ODE_LOSS ode_loss
#include "ode_primal.inc"

double BENCH_VARIANT(ode_loss_primal)(struct ode *p) {
  return ode_loss(p->y0, p->a, p->F, p->n, p->steps, p->dt);
}

void BENCH_VARIANT(ode_grad_adjoint)(struct ode *p, double *deriv) {
  int n = p->n;
  memset(deriv, 0, 3 * n * sizeof(double));
  __enzyme_autodiff((void *)ode_loss, enzyme_dup, p->y0, deriv, enzyme_dup,
                    p->a, deriv + n, enzyme_dup, p->F, deriv + 2 * n,
                    enzyme_const, n, enzyme_const, p->steps, enzyme_const,
                    p->dt);
}
