// A static helper with a registered custom gradient would be inlined by the
// optimizer before AD runs; the plugin keeps it out of the inliner so that
// the request is still reported (custom derivatives are not implemented
// yet) rather than silently differentiating the helper's body.
// RUN: not %clang-adjoint -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang-adjoint -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

static double g(double x) { return x * x; }
static void *g_aug(double x) { return 0; }
static void g_rev(double x, double dret, void *tape) {}
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)g_aug, (void *)g_rev};

double f(double x) { return 2 * g(x) + x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: error: adjoint: 'g' has a custom derivative registered by '__enzyme_register_gradient_g', and custom derivatives are not supported yet
