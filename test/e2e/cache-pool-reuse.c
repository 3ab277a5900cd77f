// A gradient with a dozen loop caches live at once, called repeatedly: from
// the second call on, every cache must come from the thread's pool
// (Synthesis/CachePool.h), not from malloc; blocks handed back to glibc are
// trimmed from the heap and cost page faults on the next call (GMM's
// gradient has twelve caches; a pool of four made it 7x slower). malloc is
// counted through the linker's --wrap. Reference: the closed form of the
// derivative of the chain of maps below, each applied in place.
// RUN: %clang-adjoint -O2 %s -o %t -lm -Wl,--wrap=malloc && %t
#include "gradcheck.h"

#include <stdlib.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

static int mallocs;
void *__real_malloc(size_t);
void *__wrap_malloc(size_t size) {
  ++mallocs;
  return __real_malloc(size);
}

/* Caches of at least 4 KiB: smaller ones bypass the pool. */
enum { Passes = 12, N = 1200 };

/* Each pass overwrites x: its reverse needs the old values, one cache per
   pass (twelve loops, not a nest: a nest would have one cache). */
#define PASS(p)                                                                \
  for (int i = 0; i < n; ++i)                                                  \
    x[i] = sin(x[i]) + 0.1 * p;                                                \
  s += x[n - 1];
static double chain(double *x, int n) {
  double s = 0;
  PASS(0) PASS(1) PASS(2) PASS(3) PASS(4) PASS(5)
  PASS(6) PASS(7) PASS(8) PASS(9) PASS(10) PASS(11)
  return s;
}

int main(void) {
  double x[N], dx[N];
  int first = 0;
  for (int call = 0; call < 3; ++call) {
    for (int i = 0; i < N; ++i) {
      x[i] = 0.001 * i;
      dx[i] = 0;
    }
    int before = mallocs;
    __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_const, N);
    if (call == 0)
      first = mallocs - before;
    else if (mallocs != before) {
      fprintf(stderr, "FAIL call %d: %d mallocs (first call: %d)\n", call,
              mallocs - before, first);
      ++gc_failures;
    }
    // d/dx_i of x_{n-1} after each pass: only x_{n-1} depends on itself.
    for (int i = 0; i < N - 1; ++i)
      gc_expect("chain", "d/dx_i, i < n-1", dx[i], 0, GC_TOL_DOUBLE);
    long double v = 0.001L * (N - 1), d = 1, total = 0;
    for (int p = 0; p < Passes; ++p) {
      d *= cosl(v);
      v = sinl(v) + 0.1L * p;
      total += d;
    }
    gc_expect("chain", "d/dx_{n-1}", dx[N - 1], total, GC_TOL_DOUBLE);
  }
  if (first == 0) {
    fprintf(stderr, "FAIL: the first call allocated no cache\n");
    ++gc_failures;
  }
  return gc_finish();
}
