// For test/LTO/static-library.cpp.
#include "springs.h"

#include <cmath>
#include <vector>

double springs::chainEnergy(const double *X, int N, const Spring &S) {
  std::vector<double> Links;
  for (int I = 0; I + 1 < N; ++I)
    Links.push_back(S.energy(X[I], X[I + 1]));
  double E = 0;
  for (int I = 0; I < N; ++I)
    E += 9.81 * std::exp(0.1 * X[I]);
  for (double L : Links)
    E += L;
  return E;
}
