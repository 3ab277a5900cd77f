// A static helper with a registered custom gradient would be inlined by the
// optimizer before AD runs; the plugin keeps it out of the inliner, so the
// custom gradient is still found, and checked: here the augmented forward
// forgets the shadow that follows the pointer parameter.
// RUN: not %clang-adjoint -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang-adjoint -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

static double g(const double *x) { return *x * *x; }
static double g_aug(const double *x) { return *x * *x; }
static void g_rev(const double *x, double *dx, double dret) {}
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)g_aug, (void *)g_rev};

double f(double x) { return 2 * g(&x) + x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: error: adjoint: custom gradient '__enzyme_register_gradient_g' for 'g': the augmented forward 'g_aug' has type double g_aug(void *); expected the augmented forward as struct { void *; double; } augmented(void *, void *)
