// Virtual calls that dispatch on objects chosen at run time (a loop over an
// array of pointers to objects of two classes) are calls through pointers
// AD cannot follow: at -O0 a located compile-time error, not a crash or a
// wrong gradient. (Calls on objects fn creates work: test/e2e/
// cxx-virtual.cpp.)
// RUN: not %clangxx-adjoint -g -O0 -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff(void *, ...);

struct Shape {
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Circle : Shape {
  double k;
  explicit Circle(double k) : k(k) {}
  double area(double s) const override { return k * 3.14159 * s * s; }
};

double total(double x, double y) {
  Square sq;
  Circle c(y);
  const Shape *shapes[2] = {&sq, &c};
  double t = 0;
  for (const Shape *s : shapes)
    t += s->area(x);
  return t;
}

double g(double x) { return __enzyme_autodiff((void *)total, x, 2.0); }

// CHECK: cxx-virtual-dispatch.cpp:28:13: error: adjoint: indirect calls cannot be differentiated yet (in the gradient of 'total(double, double)' requested at {{.*}}cxx-virtual-dispatch.cpp:32:29)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
