// Heap blocks that the function allocates before its loops and frees before
// it returns: the gradient frees them when it returns instead, so that the
// reverse loads them again rather than caching what the loops read
// (Planning/deferred-free.ll checks the plan). Every read of a block must
// still see the values the function wrote, every block be freed exactly
// once, shadows included: the AddressSanitizer build checks for use after
// free, double frees and leaks. References: finite differences.
// RUN: %clang-adjoint -O2 %s -o %t -lm && %t
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm && %ta
// RUN: %clangxx-adjoint -x c++ -O2 %s -o %tx -lm && %tx
#include "gradcheck.h"

#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
#ifdef __cplusplus
}
#define NEW_ARRAY(n) new double[n]
#define DELETE_ARRAY(p) delete[] p
#else
#define NEW_ARRAY(n) (double *)malloc((n) * sizeof(double))
#define DELETE_ARRAY(p) free(p)
#endif

enum { N = 7 };

/* A table of constants, filled in one loop and read in another. */
static double weighted(double *x, int n) {
  double *w = NEW_ARRAY(n);
  for (int i = 0; i < n; ++i)
    w[i] = exp(0.1 * i);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i] * x[i];
  DELETE_ARRAY(w);
  return s;
}

/* A block of active values, read at other indices than it was written:
   its shadow carries derivatives back to x. */
static double neighbours(double *x, int n) {
  double *y = NEW_ARRAY(n);
  for (int i = 0; i < n; ++i)
    y[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[(i + 1) % n] * x[i];
  DELETE_ARRAY(y);
  return s;
}

/* Freed on one path; on the other the block outlives the call: the
   gradient must not free it. */
static double *kept;
static double one_exit_frees(double *x, int n) {
  double *y = NEW_ARRAY(n);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * x[(i + 2) % n];
  if (x[0] > 0) {
    DELETE_ARRAY(y);
    return s;
  }
  kept = y;
  return s * y[1];
}

/* Frees what one_exit_frees kept, reading it first. */
static void release_kept(void) {
  if (kept && kept[1] < 0)
    abort();
  DELETE_ARRAY(kept);
  kept = 0;
}

#define REFERENCE(name)                                                        \
  static long double name##_ref(const long double *v) {                        \
    double x[N];                                                               \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = (double)v[i];                                                     \
    double r = name(x, N);                                                     \
    release_kept();                                                            \
    return r;                                                                  \
  }
REFERENCE(weighted)
REFERENCE(neighbours)
REFERENCE(one_exit_frees)

typedef double (*objective)(double *, int);

static void check(const char *test, objective f, gc_fn ref,
                  const long double *at) {
  double x[N], dx[N] = {0};
  long double xl[N], got[N];
  for (int i = 0; i < N; ++i)
    x[i] = (double)(xl[i] = at[i]);
  if (f == weighted)
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, N);
  else if (f == neighbours)
    __enzyme_autodiff((void *)neighbours, enzyme_dup, x, dx, enzyme_const, N);
  else
    __enzyme_autodiff((void *)one_exit_frees, enzyme_dup, x, dx, enzyme_const,
                      N);
  release_kept();
  for (int i = 0; i < N; ++i)
    got[i] = dx[i];
  // The finite differences are taken in double precision: loosen the tolerance.
  gc_grad(test, ref, N, xl, got, 1e-7L);
}

int main(void) {
  const long double positive[N] = {0.3L, -1.2L, 0.7L, 2.1L, -0.4L, 1.5L, 0.9L};
  const long double negative[N] = {-0.8L, 0.6L, -1.1L, 0.2L, 1.3L, -0.5L, 0.4L};
  for (int k = 0; k < 2; ++k) {
    const long double *at = k ? negative : positive;
    check("weighted", weighted, weighted_ref, at);
    check("neighbours", neighbours, neighbours_ref, at);
    check("one_exit_frees", one_exit_frees, one_exit_frees_ref, at);
  }
  return gc_finish();
}
