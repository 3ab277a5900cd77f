/* Asks for the gradient of a Fortran function (chain.f90) and checks it
   against central finite differences; exits with status 1 if they differ. */
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double chain_energy(const double *x, int n); /* chain.f90, bind(C) */

int main(void) {
  enum { N = 6 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = 0.9 * i + 0.1 * sin(i);
  __enzyme_autodiff((void *)chain_energy, enzyme_dup, x, dx, enzyme_const, N);

  int wrong = 0;
  for (int i = 0; i < N; ++i) {
    double h = 1e-6, saved = x[i];
    x[i] = saved + h;
    double up = chain_energy(x, N);
    x[i] = saved - h;
    double down = chain_energy(x, N);
    x[i] = saved;
    double fd = (up - down) / (2 * h);
    printf("dE/dx%d = %13.10f  finite difference %13.10f\n", i, dx[i], fd);
    wrong |= !(fabs(dx[i] - fd) <= 1e-6 * (1 + fabs(fd)));
  }
  return wrong;
}
