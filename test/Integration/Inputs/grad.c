// A program for the driver tests: a gradient with libm calls (so that the
// link needs -lm), checked against finite differences. <adjoint/adjoint.h>
// comes from the driver's include directory.
#include <adjoint/adjoint.h>

#include "gradcheck.h"

#include <math.h>

typedef struct {
  double dx, dy;
} Grad2;
Grad2 __enzyme_autodiff_xy(void *, ...);

double f(double x, double y) { return sin(x) * exp(y) + x * log(y); }

static long double f_at(const long double *v) { return f(v[0], v[1]); }

int main(void) {
  double x = 0.7, y = 1.3;
  Grad2 g = __enzyme_autodiff_xy((void *)f, x, y);
  gc_grad("f", f_at, 2, (long double[]){x, y}, (long double[]){g.dx, g.dy},
          GC_TOL_DOUBLE);
  return gc_finish();
}
