// A program of two files built with LTO: the functions differentiated here
// are defined in Inputs/two-files-lib.c, so only the link, where the linker
// merges the bitcode, can differentiate them. Reverse mode through a loop
// that caches values (the cache pool) and a custom gradient registered in
// the other file (its reverse counts its calls), a function of this file
// that calls one of the other file, and forward mode, also through the
// same function with its registered forward derivative (counted too).
// References: long-double finite differences of the same code.
//
// The plugin only at link time; registrations kept alive by the linker
// option the user guide gives.
// RUN: %clang -flto -O2 -c %s -o %t.main.o
// RUN: %clang -flto -O2 -c %S/Inputs/two-files-lib.c -o %t.lib.o
// RUN: %clang-lto-link -Wl,--undefined-glob='__enzyme_register_*' %t.main.o %t.lib.o -lm -o %t1
// RUN: %t1
//
// The plugin at compile time too: it leaves the requests to the link (a
// file without any gets through unchanged) and keeps the registrations.
// RUN: %clang-adjoint -flto -O2 -c %s -o %t.main-p.o
// RUN: %clang-adjoint -flto -O2 -c %S/Inputs/two-files-lib.c -o %t.lib-p.o
// RUN: llvm-dis %t.main-p.o -o - | FileCheck --check-prefix=DEFERRED %s
// RUN: %clang-lto-link %t.main-p.o %t.lib-p.o -lm -o %t2
// RUN: %t2
// Both sides mixed, and the LTO pipeline at O3 and O0.
// RUN: %clang-lto-link -Wl,--lto-O3 %t.main-p.o %t.lib.o -Wl,--undefined-glob='__enzyme_register_*' -lm -o %t3 && %t3
// RUN: %clang-lto-link -Wl,--lto-O0 %t.main.o %t.lib-p.o -lm -o %t4 && %t4
//
// Plugin options through -Wl,-mllvm, after -load registered them: the
// module after AD, which the verifier accepts; and the Ref configuration.
// RUN: %clang-lto-link %lto-plugin-options -Wl,-mllvm,-adjoint-print-after %t.main-p.o %t.lib-p.o -lm -o %t5 2> %t5.ll
// RUN: %t5
// RUN: opt -passes=verify -disable-output %t5.ll
// RUN: FileCheck --check-prefix=IR --implicit-check-not=__enzyme_autodiff --implicit-check-not=__enzyme_fwddiff %s < %t5.ll
// RUN: %clang-lto-link %lto-plugin-options -Wl,-mllvm,-adjoint-before-optimization %t.main-p.o %t.lib-p.o -lm -o %t6
// RUN: %t6
#include "gradcheck.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// Defined in Inputs/two-files-lib.c.
extern int reverse_calls, forward_calls;
double energy(const double *x, int n);
void scale(const double *x, double *out, int n, double k);
double wave(double x, double y);

// DEFERRED: call {{.*}} @__enzyme_autodiff(ptr {{.*}}@energy
// DEFERRED: call {{.*}} @__enzyme_fwddiff(ptr {{.*}}@wave

// IR-DAG: define internal {{.*}}@adjoint.cache.take(
// IR-DAG: @__enzyme_register_gradient_cube = {{.*}}global
// IR-DAG: call {{.*}}@cube_rev(
// IR-DAG: @__enzyme_register_derivative_cube = {{.*}}global
// IR-DAG: call {{.*}}@cube_fwd(

#define N 5

static long double energy_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return energy(x, N);
}

// Calls into the other file; scale's loop stores into a local array.
static double energy_sum(const double *x, double k) {
  double y[N];
  scale(x, y, N, k);
  double s = 0;
  for (int i = 0; i != N; ++i)
    s += y[i] * x[(i + 2) % N];
  return s;
}
static long double energy_sum_at(const long double *v) {
  double x[N];
  for (int i = 0; i != N; ++i)
    x[i] = v[i];
  return energy_sum(x, v[N]);
}

static long double wave_at(const long double *v) { return wave(v[0], v[1]); }

int main(void) {
  double x[N] = {0.3, -0.2, 0.9, 1.1, 0.4};
  long double lx[N + 1];
  for (int i = 0; i != N; ++i)
    lx[i] = x[i];

  double dx[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  long double got[N + 1];
  for (int i = 0; i != N; ++i)
    got[i] = dx[i];
  gc_grad("energy", energy_at, N, lx, got, GC_TOL_DOUBLE);
  // One call of the registered reverse per iteration: the body of cube
  // was not differentiated.
  gc_expect("energy", "calls of cube_rev", reverse_calls, N, 0);

  double k = 1.7, dsum[N] = {0};
  lx[N] = k;
  double dk = __enzyme_autodiff((void *)energy_sum, enzyme_dup, x, dsum,
                                enzyme_out, k);
  for (int i = 0; i != N; ++i)
    got[i] = dsum[i];
  got[N] = dk;
  gc_grad("energy_sum", energy_sum_at, N + 1, lx, got, GC_TOL_DOUBLE);

  double v[N] = {0.5, -1.0, 0.25, 2.0, 1.0};
  double dir = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v,
                                enzyme_const, N);
  long double lv[N];
  for (int i = 0; i != N; ++i)
    lv[i] = v[i];
  gc_tangent("energy", energy_at, N, lx, lv, dir, GC_TOL_DOUBLE);
  gc_expect("energy", "calls of cube_fwd", forward_calls, N, 0);

  double tangent = __enzyme_fwddiff((void *)wave, 0.4, 1.0, -0.3, 0.5);
  gc_tangent("wave", wave_at, 2, (long double[]){0.4, -0.3},
             (long double[]){1.0, 0.5}, tangent, GC_TOL_DOUBLE);
  return gc_finish();
}
