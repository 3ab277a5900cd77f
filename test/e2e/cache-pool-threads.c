// Gradients whose loop caches come from the per-thread pool of cache
// blocks (Synthesis/CachePool.h), called repeatedly from several threads at
// once and from the main thread: each call must get correct gradients
// whatever block the pool hands it (several sizes, so blocks are reused for
// smaller requests and replaced by larger ones), threads must not share
// blocks, and every kept block must be freed when its thread exits (the
// sanitizer run's leak check; the main thread's at exit). Reference: the
// closed form d/dx (x sin x) = sin x + x cos x.
// RUN: %clang-adjoint -O2 %s -o %t -lm -lpthread && %t
// RUN: %clang-adjoint -O1 -fsanitize=address %s -o %ta -lm -lpthread && %ta
#include <math.h>
#include <pthread.h>
#include <stdio.h>

extern int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);

/* Overwrites x: the reverse needs a cache of the old values. */
static double f(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = sin(x[i]) * x[i];
    s += x[i];
  }
  return s;
}

enum { MaxN = 4000 };

static void *work(void *arg) {
  long seed = (long)arg, bad = 0;
  static _Thread_local double x[MaxN], dx[MaxN];
  for (int r = 0; r < 60; ++r) {
    int n = 10 + (int)((seed * 7919 + r * 104729) % (MaxN - 10));
    for (int i = 0; i < n; ++i) {
      x[i] = 0.001 * i + 0.01 * seed;
      dx[i] = 0;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; ++i) {
      double v = 0.001 * i + 0.01 * seed;
      if (fabs(dx[i] - (sin(v) + v * cos(v))) > 1e-12) {
        fprintf(stderr, "thread %ld round %d n %d: dx[%d] = %g, want %g\n",
                seed, r, n, i, dx[i], sin(v) + v * cos(v));
        bad = 1;
        break;
      }
    }
  }
  return (void *)bad;
}

int main(void) {
  pthread_t threads[4];
  long bad = 0;
  for (long i = 0; i < 4; ++i)
    pthread_create(&threads[i], 0, work, (void *)(i + 1));
  bad |= (long)work(0);
  for (int i = 0; i < 4; ++i) {
    void *result;
    pthread_join(threads[i], &result);
    bad |= (long)result;
  }
  puts(bad ? "FAIL" : "ok");
  return bad != 0;
}
