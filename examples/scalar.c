// Adjoint example: the gradient of a scalar function with a branch and libm
// calls, compared with central finite differences.
//
// Build (from the repository root, after building the plugin):
//   clang-19 -O2 -fpass-plugin=build/lib/Adjoint.so examples/scalar.c -lm
// or let CMake do it: cmake --build build --target run-example
#include <math.h>
#include <stdio.h>

// The Enzyme-compatible API. The markers are never defined by the program:
// the plugin takes care of them. __enzyme_autodiff is declared with the
// return type we want: one double per enzyme_out argument (here x and y),
// in argument order.
extern int enzyme_const;
typedef struct {
  double dx, dy;
} Gradient;
Gradient __enzyme_autodiff(void *fn, ...);

// The function to differentiate. `mode` is an integer, so it is not
// differentiated; x and y are floating-point, so by default their gradients
// are returned.
double f(double x, double y, int mode) {
  double r = x * y + sin(x) / (1.0 + y * y);
  if (r > 1.0)
    r = log(r) * exp(-y);
  else
    r = pow(r, 3) + tanh(x);
  return mode ? r : -r;
}

static void report(double x, double y, int mode) {
  // enzyme_const is optional here (integers are constant by default); it is
  // written out to show where a marker goes: just before its argument.
  Gradient g = __enzyme_autodiff((void *)f, x, y, enzyme_const, mode);

  const double h = 1e-6;
  double fdx = (f(x + h, y, mode) - f(x - h, y, mode)) / (2 * h);
  double fdy = (f(x, y + h, mode) - f(x, y - h, mode)) / (2 * h);

  printf("f(%g, %g, %d) = %.12f\n", x, y, mode, f(x, y, mode));
  printf("  gradient (Adjoint):            df/dx = %+.12f  df/dy = %+.12f\n",
         g.dx, g.dy);
  printf("  central finite difference:     df/dx = %+.12f  df/dy = %+.12f\n",
         fdx, fdy);
}

int main(void) {
  report(0.7, 1.3, 1); // r > 1: takes the log/exp branch
  report(0.3, 0.5, 0); // r <= 1: takes the pow/tanh branch, result negated
  return 0;
}
