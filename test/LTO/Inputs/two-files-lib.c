// The functions that test/LTO/two-files.c differentiates, in a file of
// their own: under LTO the call and the body meet only at link time. This
// file contains no __enzyme_ call.
#include <math.h>

int reverse_calls;

// An Enzyme-style registration: a plain global that nothing in the program
// reads, which LTO would drop before AD at link time unless something keeps
// it. noinline: without the plugin at compile time, nothing else would stop
// the compile-time optimizer from inlining cube into energy.
__attribute__((noinline)) double cube(double x) { return x * x * x; }
double cube_aug(double x) { return cube(x); }
double cube_rev(double x, double d) {
  ++reverse_calls;
  return 3 * x * x * d;
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_aug,
                                            (void *)cube_rev};
// And its forward derivative: a second registration of the same function.
int forward_calls;
double cube_fwd(double x, double dx) {
  ++forward_calls;
  return 3 * x * x * dx;
}
void *__enzyme_register_derivative_cube[2] = {(void *)cube, (void *)cube_fwd};

// A loop whose reverse needs the values of s: a cache from the pool that the
// plugin defines after AD.
double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(x[i] * s + 1) * cube(x[(i + 1) % n]) + log1p(exp(x[i]));
  return s;
}

// Writes its result through a pointer; called from energy_sum in the other
// file.
void scale(const double *x, double *out, int n, double k) {
  for (int i = 0; i < n; ++i)
    out[i] = k * x[i] * x[i];
}

double wave(double x, double y) { return sin(x) * exp(y) + x * y * y; }
