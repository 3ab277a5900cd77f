// At -O0, a function pointer and a marker kept in local variables still
// identify the request; the call is replaced by the gradient.
// RUN: %clang-adjoint -O0 -S -emit-llvm %s -o - | FileCheck %s

extern int enzyme_const;
double __enzyme_autodiff(void *, ...);

double f(double x, double y) { return x * y; }

double g(double x, double y) {
  void *fp = (void *)f;
  int mark = enzyme_const;
  return __enzyme_autodiff(fp, x, mark, y);
}

// CHECK-LABEL: define {{.*}}double @g(
// CHECK:         call double @f.adjoint.grad(
// CHECK-NOT:     __enzyme_autodiff
// CHECK-LABEL: define internal double @f.adjoint.grad(
