// For test/LTO/static-library.cpp: a small C++ library of two files.
#ifndef SPRINGS_H
#define SPRINGS_H

namespace springs {

class Spring {
public:
  Spring(double Stiffness, double Rest) : K(Stiffness), L(Rest) {}
  /// The energy of the spring between positions a and b (in spring.cpp).
  double energy(double A, double B) const;

private:
  double K, L;
};

/// The energy of a chain of n masses at heights x: the springs between
/// neighbours and gravity (in chain.cpp).
double chainEnergy(const double *X, int N, const Spring &S);

} // namespace springs

#endif
