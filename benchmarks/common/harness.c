/*===- harness.c - main() of every benchmark problem ------------------------===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* Runs one problem (bench.h) in one of these modes; benchmarks/run drives    *|
|* them and turns their output into ratios, a CSV and a chart.               *|
|*                                                                            *|
|*   --list [--quick]      the sizes, one per line                            *|
|*   --check SIZE          hand-written derivative vs long double finite      *|
|*                         differences, Adjoint's and Ref's vs hand-written;  *|
|*                         exit status 1 on a mismatch                        *|
|*   --time SIZE [R]       the check against the hand-written derivative,     *|
|*                         then R (default 7) rounds, each timing a batch of  *|
|*                         primal, hand-written, Adjoint and Ref evaluations  *|
|*                         in turn; prints the median seconds per evaluation  *|
|*   --run WHAT SIZE N     N evaluations of primal, hand, adjoint or ref,     *|
|*                         then prints the process's peak resident memory     *|
\*===----------------------------------------------------------------------===*/
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Adjoint's and Ref's derivatives must equal the hand-written one up to
   rounding (they sum the same terms in another order); the hand-written
   one must equal finite differences up to their truncation error. */
static const double ToleranceVsHand = 1e-8;
static const double ToleranceVsFD = 1e-6;
static const int FDEntries = 48;

void bench_seed(bench_rng *r, unsigned long long seed) {
  r->state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
}

double bench_uniform(bench_rng *r) {
  r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(r->state >> 11) * (1.0 / 9007199254740992.0);
}

double bench_normal(bench_rng *r) {
  double u = bench_uniform(r), v = bench_uniform(r);
  return sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
}

long bench_size_param(const char *size, const char *key, long fallback) {
  size_t n = strlen(key);
  for (const char *p = size; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : 0)
    if (!strncmp(p, key, n) && p[n] == '=')
      return strtol(p + n + 1, 0, 10);
  return fallback;
}

double bench_fd_error(double fd, double entry) {
  return fabs(fd - entry) / fmax(1, fabs(entry));
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *setup_or_exit(const char *size) {
  void *ctx = bench_problem.setup(size);
  if (!ctx) {
    fprintf(stderr, "%s: bad size '%s'\n", bench_problem.name, size);
    exit(2);
  }
  return ctx;
}

/* The largest difference between a and b relative to the magnitude of b
   (entries far below the largest one are compared with that scale, so
   that rounding noise in near-zero entries does not count). */
static double max_relative_error(const double *a, const double *b, size_t n) {
  double largest = 0, worst = 0;
  for (size_t i = 0; i < n; ++i)
    largest = fmax(largest, fabs(b[i]));
  for (size_t i = 0; i < n; ++i) {
    double scale = fmax(fabs(b[i]), 1e-6 * largest);
    double e = fabs(a[i] - b[i]) / (scale > 0 ? scale : 1);
    if (!(e <= worst)) /* also catches NaN */
      worst = isnan(e) ? INFINITY : e;
  }
  return worst;
}

/* Adjoint's and Ref's derivatives against the hand-written one; with fd,
   the hand-written one against finite differences first. Returns whether
   all agree. */
static int check(void *ctx, const char *size, int fd) {
  size_t n = bench_problem.deriv_len(ctx);
  double *hand = calloc(n, sizeof(double));
  double *ad = calloc(n, sizeof(double));
  double *ref = calloc(n, sizeof(double));
  bench_problem.hand(ctx, hand);
  double fdError = fd ? bench_problem.check_fd(ctx, hand, FDEntries) : 0;
  bench_problem.adjoint(ctx, ad);
  bench_problem.ref(ctx, ref);
  double adError = max_relative_error(ad, hand, n);
  double refError = max_relative_error(ref, hand, n);
  int ok = fdError <= ToleranceVsFD && adError <= ToleranceVsHand &&
           refError <= ToleranceVsHand;
  printf("check %s %s:", bench_problem.name, size);
  if (fd)
    printf(" hand-vs-fd %.1e", fdError);
  printf(" adjoint-vs-hand %.1e ref-vs-hand %.1e (%zu entries) %s\n", adError,
         refError, n, ok ? "ok" : "MISMATCH");
  free(hand);
  free(ad);
  free(ref);
  return ok;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { Primal, Hand, Adjoint, Ref, NumVariants };
static const char *const VariantNames[NumVariants] = {"primal", "hand",
                                                      "adjoint", "ref"};

static void run_variant(int v, void *ctx, double *deriv) {
  switch (v) {
  case Primal: bench_problem.primal(ctx); break;
  case Hand: bench_problem.hand(ctx, deriv); break;
  case Adjoint: bench_problem.adjoint(ctx, deriv); break;
  case Ref: bench_problem.ref(ctx, deriv); break;
  }
  BENCH_BARRIER();
}

/* Seconds per evaluation of a batch of n. */
static double time_batch(int v, void *ctx, double *deriv, long n) {
  double start = now();
  for (long i = 0; i < n; ++i)
    run_variant(v, ctx, deriv);
  return (now() - start) / n;
}

static int time_problem(void *ctx, const char *size, int rounds) {
  if (!check(ctx, size, 0))
    return 1;
  double *deriv = calloc(bench_problem.deriv_len(ctx), sizeof(double));
  /* Batches long enough (about 20 ms) for the clock, sized per variant. */
  long batch[NumVariants];
  for (int v = 0; v < NumVariants; ++v) {
    double once = time_batch(v, ctx, deriv, 1);
    batch[v] = once > 0.02 ? 1 : (long)(0.02 / fmax(once, 1e-9)) + 1;
  }
  double samples[NumVariants][64];
  if (rounds > 64)
    rounds = 64;
  for (int r = 0; r < rounds; ++r)
    for (int v = 0; v < NumVariants; ++v)
      samples[v][r] = time_batch(v, ctx, deriv, batch[v]);
  printf("time %s %s", bench_problem.name, size);
  for (int v = 0; v < NumVariants; ++v)
    printf(" %s=%.6e", VariantNames[v], median(samples[v], rounds));
  printf("\n");
  free(deriv);
  return 0;
}

/* The peak resident set of this process in kB: VmHWM belongs to the
   address space, which exec replaced, whereas getrusage's ru_maxrss also
   counts what the parent used before exec (the Python of benchmarks/run). */
static long peak_resident_kb(void) {
  FILE *status = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (status && fgets(line, sizeof line, status))
    if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
      break;
  if (status)
    fclose(status);
  return kb;
}

static int run_only(const char *what, void *ctx, long n) {
  for (int v = 0; v < NumVariants; ++v) {
    if (strcmp(what, VariantNames[v]))
      continue;
    double *deriv = calloc(bench_problem.deriv_len(ctx), sizeof(double));
    for (long i = 0; i < n; ++i)
      run_variant(v, ctx, deriv);
    free(deriv);
    printf("peak %s %ld kB\n", what, peak_resident_kb());
    return 0;
  }
  fprintf(stderr, "--run: unknown variant '%s'\n", what);
  return 2;
}

static int usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s --list [--quick] | --check SIZE | --time SIZE [ROUNDS]"
          " | --run primal|hand|adjoint|ref SIZE N\n",
          argv0);
  return 2;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "--list")) {
    if (argc >= 3 && !strcmp(argv[2], "--quick"))
      printf("%s\n", bench_problem.quick_size);
    else
      for (const char *const *s = bench_problem.sizes; *s; ++s)
        printf("%s\n", *s);
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "--check")) {
    void *ctx = setup_or_exit(argv[2]);
    int ok = check(ctx, argv[2], 1);
    bench_problem.teardown(ctx);
    return ok ? 0 : 1;
  }
  if (argc >= 3 && !strcmp(argv[1], "--time")) {
    void *ctx = setup_or_exit(argv[2]);
    int status = time_problem(ctx, argv[2], argc >= 4 ? atoi(argv[3]) : 7);
    bench_problem.teardown(ctx);
    return status;
  }
  if (argc >= 5 && !strcmp(argv[1], "--run")) {
    void *ctx = setup_or_exit(argv[3]);
    int status = run_only(argv[2], ctx, atol(argv[4]));
    bench_problem.teardown(ctx);
    return status;
  }
  return usage(argv[0]);
}
