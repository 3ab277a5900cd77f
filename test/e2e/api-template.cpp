// The API declared as C++ templates (as some C++ libraries do): the mangled
// names contain __enzyme_autodiff and are recognised. Closed form.
// RUN: %clang-adjoint -x c++ -O0 %s -o %t0 && %t0
// RUN: %clang-adjoint -x c++ -O2 %s -o %t2 && %t2
extern int enzyme_const;
template <typename R, typename... A> R __enzyme_autodiff(A...);

double f(double x, double y) { return x * x * y; }

int main() {
  // d/dx (x^2 y) at (3, 2) = 2 x y = 12.
  return __enzyme_autodiff<double>((void *)f, 3.0, enzyme_const, 2.0) != 12;
}
