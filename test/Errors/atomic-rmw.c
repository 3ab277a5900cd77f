// Atomic read-modify-write on memory that holds derivatives is reported
// (its derivative would otherwise be lost).
// RUN: not %clang-adjoint -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

void __enzyme_autodiff(void *, ...);

void accumulate(double *acc, const double *x) {
  __atomic_fetch_add(acc, x[0] * x[0], __ATOMIC_RELAXED);
}
void run(double *acc, double *dacc, double *x, double *dx) {
  __enzyme_autodiff((void *)accumulate, acc, dacc, x, dx);
}

// CHECK: atomic-rmw.c:8:3: error: adjoint: atomic operations on memory that holds derivatives are not supported yet
