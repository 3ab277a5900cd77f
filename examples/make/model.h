// The model of the Make example (model.c).
#ifndef MODEL_H
#define MODEL_H

// Least-squares loss of y = p[0] * exp(-p[1] * t) against n points (t, y).
double loss(const double *p, const double *t, const double *y, int n);
// Its gradient with respect to p, computed by Adjoint, written to grad[0..1].
void loss_gradient(const double *p, double *grad, const double *t,
                   const double *y, int n);

#endif
