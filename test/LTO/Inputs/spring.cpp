// For test/LTO/static-library.cpp.
#include "springs.h"

#include <cmath>

namespace {
template <typename T> T square(T V) { return V * V; }
} // namespace

double springs::Spring::energy(double A, double B) const {
  return 0.5 * K * square(std::sqrt(square(A - B) + 1.0) - L);
}
