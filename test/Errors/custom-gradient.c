// A custom gradient whose reverse does not have the convention's signature
// (it must return the gradient of the double parameter) is an error at the
// call that needs it, naming the registration and the signatures expected,
// also when the function is reached through a helper.
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double g(double x) { return x * x; }
void *g_aug(double x) { return 0; }
void g_rev(double x, double dret, void *tape) {}
void *__enzyme_register_gradient_g[3] = {(void *)g, (void *)g_aug, (void *)g_rev};

static double helper(double x) { return 2 * g(x); }
double f(double x) { return helper(x) + x; }

double df(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: custom-gradient.c:14:45: error: adjoint: custom gradient '__enzyme_register_gradient_g' for 'g': the reverse 'g_rev' has type void g_rev(double, double, void *); expected the augmented forward as struct { void *; double; } augmented(double) (the tape and the result), double augmented(double) (no tape) or void * augmented(double) (no result), and the reverse as double reverse(double, double, void *)
// CHECK-NOT: PLEASE submit a bug report
