/*===- bench.h - The interface between a benchmark problem and harness.c ---===*\
|*                                                                            *|
|* Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.       *|
|*                                                                            *|
|* A problem (benchmarks/<name>/) is built from three kinds of sources:       *|
|*                                                                            *|
|*  - <name>_ad.c, the only file compiled with the plugin. It holds the       *|
|*    primal and the __enzyme_autodiff calls, and names what it exports with  *|
|*    BENCH_VARIANT(x): benchmarks/run compiles it twice, once as AD after    *|
|*    optimization (x_opt) and once with -adjoint-before-optimization         *|
|*    (x_ref, the Enzyme paper's "Ref"), and links both into one program so   *|
|*    that every ratio is measured in one run. Its compile time with and      *|
|*    without the plugin is what "compile time with AD" means.                *|
|*  - any other <name>*.c: data generation, the hand-written derivative, the  *|
|*    finite-difference check (long double), the bench_problem definition.    *|
|*    Compiled without the plugin.                                            *|
|*  - benchmarks/common/harness.c: main(), checks, timing, memory modes.      *|
|*                                                                            *|
|* Every derivative function computes the whole derivative from the inputs,  *|
|* including zeroing the shadows it accumulates into, and writes it to a     *|
|* flat array of deriv_len doubles whose layout the problem chooses (a       *|
|* gradient, a dense Jacobian, or the blocks of a sparse one). The three     *|
|* (hand-written, Adjoint, Ref) must agree entry by entry.                   *|
\*===----------------------------------------------------------------------===*/
#ifndef ADJOINT_BENCH_H
#define ADJOINT_BENCH_H

#include <stddef.h>

#define BENCH_CONCAT2(a, b) a##_##b
#define BENCH_CONCAT(a, b) BENCH_CONCAT2(a, b)
/* Set by benchmarks/run to opt or ref when compiling <name>_ad.c. */
#ifndef BENCH_AD_VARIANT
#define BENCH_AD_VARIANT opt
#endif
#define BENCH_VARIANT(x) BENCH_CONCAT(x, BENCH_AD_VARIANT)

/* Keeps a call to a function that only reads memory from being hoisted out
   of a timing loop or deleted. */
#define BENCH_BARRIER() __asm__ volatile("" : : : "memory")

extern int enzyme_const, enzyme_dup, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

typedef void (*bench_derivative_fn)(void *ctx, double *deriv);

struct bench_problem {
  const char *name;
  /* Size specifications (problem-defined strings such as "d=10,K=25"),
     null-terminated: the full run's sizes and the one --quick checks. */
  const char *const *sizes;
  const char *quick_size;
  /* Builds the inputs of a size deterministically (fixed seed); returns
     null and prints why for a malformed size. */
  void *(*setup)(const char *size);
  void (*teardown)(void *ctx);
  size_t (*deriv_len)(void *ctx);
  /* The primal objective alone (the _opt object's copy). */
  void (*primal)(void *ctx);
  bench_derivative_fn hand, adjoint, ref;
  /* Compares deriv (the hand-written derivative) with central finite
     differences computed in long double on at most max_entries entries
     (chosen deterministically, spread over all parameter kinds); returns
     the largest bench_fd_error. */
  double (*check_fd)(void *ctx, const double *deriv, int max_entries);
};

/* Each problem defines exactly one. */
extern const struct bench_problem bench_problem;

/* How far a finite difference is from the derivative's entry, relative to
   max(1, |entry|): what check_fd reports, per entry. */
double bench_fd_error(double fd, double entry);

/* Deterministic inputs: a small LCG so that every platform generates the
   same data. */
typedef struct {
  unsigned long long state;
} bench_rng;
void bench_seed(bench_rng *r, unsigned long long seed);
/* Uniform in [0, 1). */
double bench_uniform(bench_rng *r);
/* Standard normal (Box-Muller). */
double bench_normal(bench_rng *r);

/* Parses "key=value" from a size specification such as "d=10,K=25";
   returns fallback when the key is absent. */
long bench_size_param(const char *size, const char *key, long fallback);

#endif /* ADJOINT_BENCH_H */
