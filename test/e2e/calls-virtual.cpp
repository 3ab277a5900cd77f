// C++ virtual calls: a loss summed over objects of two derived classes
// through base pointers. The pair called for a virtual call dispatches on
// the function pointer loaded from the (primal) vtable, so shadow objects
// need no special vtable: zero-filled copies of the objects do. Covers a
// virtual method reading the object's fields, one writing a result through
// a pointer, and a virtual call inside a loop.
// References: long-double finite differences of the same code.
// RUN: %clang-adjoint -x c++ -O0 %s -o %t0 -lm -lstdc++ && %t0
// RUN: %clang-adjoint -x c++ -O1 %s -o %t1 -lm -lstdc++ && %t1
// RUN: %clang-adjoint -x c++ -O2 %s -o %t2 -lm -lstdc++ && %t2
// RUN: %clang-adjoint -x c++ -O3 %s -o %t3 -lm -lstdc++ && %t3
// RUN: %clang-adjoint -x c++ -O1 -fsanitize=address %s -o %ta -lm -lstdc++ && %ta
#include "gradcheck.h"
#include <new>

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
}

struct Shape {
  virtual double area(double scale) const = 0;
  virtual void grow(double *out, double by) const = 0;
  virtual ~Shape() = default;
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area(double scale) const override { return 3.14159 * r * r * scale; }
  void grow(double *out, double by) const override { *out = sin(r * by); }
};
struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area(double scale) const override { return w * h * scale * scale; }
  void grow(double *out, double by) const override { *out = w * by + h; }
};

double total(Shape *const *shapes, int n, double scale) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double g;
    shapes[i]->grow(&g, scale);
    s += shapes[i]->area(scale) * g;
  }
  return s;
}

static long double total_at(const long double *v) {
  Circle c(v[0]);
  Rect r(v[1], v[2]);
  Circle c2(v[3]);
  Shape *shapes[3] = {&c, &r, &c2};
  return total(shapes, 3, v[4]);
}

int main() {
  double r = 0.8, w = 1.5, h = 0.6, r2 = 1.1, scale = 0.9;
  Circle c(r), dc(0);
  Rect rect(w, h), drect(0, 0);
  Circle c2(r2), dc2(0);
  Shape *shapes[3] = {&c, &rect, &c2};
  Shape *dshapes[3] = {&dc, &drect, &dc2};
  double dscale = __enzyme_autodiff((void *)total, enzyme_dup, shapes, dshapes,
                                    enzyme_const, 3, scale);
  gc_grad("total", total_at, 5, (long double[]){r, w, h, r2, scale},
          (long double[]){dc.r, drect.w, drect.h, dc2.r, dscale},
          GC_TOL_DOUBLE);
  return gc_finish();
}
