// A function with a registered custom gradient, reached through a helper:
// custom derivatives are not implemented yet, so differentiating its body
// instead (a silently different derivative) must be an error.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double g(double x) { return x * x; }
void *g_aug(double x) { return 0; }
void g_rev(double x, double dret, void *tape) {}
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)g_aug, (void *)g_rev};

static double helper(double x) { return 2 * g(x); }
double f(double x) { return helper(x) + x; }

double df(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: custom-gradient.c:16:30: error: adjoint: 'g' has a custom derivative registered by '__enzyme_register_gradient_g', and custom derivatives are not supported yet
// CHECK-NOT: PLEASE submit a bug report
