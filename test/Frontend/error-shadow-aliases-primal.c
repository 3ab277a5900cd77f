// The shadow of a pointer must not be the pointer itself: adjoints would be
// accumulated into the primal data. Detected when the same pointer is
// passed twice, also through -O0 local variables.
// RUN: not %clang-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang-adjoint -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double sq(const double *x) { return x[0] * x[0]; }

void g(double *x) { __enzyme_autodiff((void *)sq, enzyme_dup, x, x); }

// CHECK: error-shadow-aliases-primal.c:12:21: error: adjoint: the shadow passed for parameter 1 of 'sq' is the same pointer as its value; pass a separate, zero-initialized shadow buffer
