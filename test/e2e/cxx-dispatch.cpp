// Calls the clone cannot make direct, now differentiated as calls: virtual
// calls on objects chosen at run time (a loop over base pointers to two
// classes), a std::function called in a loop at -O0 (where each call may,
// as far as the analysis can tell, change its target), and, in forward
// mode, a recursive call that may throw (an invoke, whose unwind path is
// taken as not taken). These were compile-time errors before calls could
// stay calls. References: long-double finite differences.
// RUN: %clangxx-adjoint -O0 %s -o %t0 -lm && %t0
// RUN: %clangxx-adjoint -O2 %s -o %t2 -lm && %t2
#include "gradcheck.h"
#include <functional>

extern "C" {
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

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
static long double total_at(const long double *v) { return total(v[0], 1.3); }

double inLoop(double x, double y) {
  std::function<double(double)> f = [x](double t) { return std::cos(x * t); };
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += f(y * i);
  return s;
}
static long double inLoop_at(const long double *v) { return inLoop(v[0], 1.3); }

struct Guard {
  ~Guard() {}
};
double rec(double x, int n) {
  Guard g;
  if (n == 0)
    return x;
  return rec(x * x, n - 1) + x;
}
static long double rec_at(const long double *v) { return rec(v[0], 3); }

int main() {
  double x = 0.7, y = 1.3;
  double g = __enzyme_autodiff((void *)total, x, enzyme_const, y);
  gc_grad("total", total_at, 1, (long double[]){x}, (long double[]){g},
          GC_TOL_DOUBLE);
  g = __enzyme_autodiff((void *)inLoop, x, enzyme_const, y);
  gc_grad("inLoop", inLoop_at, 1, (long double[]){x}, (long double[]){g},
          GC_TOL_DOUBLE);
  g = __enzyme_fwddiff((void *)rec, x, 1.0, 3);
  gc_grad("rec (forward)", rec_at, 1, (long double[]){x}, (long double[]){g},
          GC_TOL_DOUBLE);
  return gc_finish();
}
