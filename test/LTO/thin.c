// ThinLTO (-flto=thin) compiles each module on its own, also at link time,
// so the plugin differentiates each file on its own: a function defined in
// the same file as the call works, with the plugin at compile time (AD
// before the link) or only in the linker (AD in lld's ThinLTO backend); a
// function of another file is an error naming it and pointing to full LTO,
// at compile time and at link time.
// Reference: the closed form.
// RUN: %clang-adjoint -flto=thin -O2 -c %s -o %t.p.o
// RUN: %clang-lto-link -flto=thin %t.p.o -lm -o %t1 && %t1
// RUN: %clang -flto=thin -O2 -c %s -o %t.o
// RUN: %clang-lto-link -flto=thin %t.o -lm -o %t2 && %t2
//
// RUN: %clang -flto=thin -O2 -c %S/Inputs/thin-remote.c -o %t.remote.o
// RUN: not %clang-adjoint -flto=thin -O2 -DREMOTE -c %s -o %t.bad.o 2>&1 | FileCheck --check-prefix=COMPILE %s
// RUN: %clang -flto=thin -O2 -DREMOTE -c %s -o %t.bad.o
// RUN: not %clang-lto-link -flto=thin %t.bad.o %t.remote.o -lm -o %t3 2>&1 | FileCheck --check-prefix=LINK %s
// COMPILE: error: adjoint: cannot differentiate 'remote': its body is not in this ThinLTO module; ThinLTO (-flto=thin) differentiates each file on its own: define it in the same file, or build with full LTO (-flto) and load the plugin into the linker
// LINK: error: {{.*}}adjoint: cannot differentiate 'remote': its body is not in this ThinLTO module; {{.*}} build with full LTO (-flto)
#include <math.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);

double local(double x) { return sin(x) * x; }
double remote(double x);

int main(void) {
#ifdef REMOTE
  return __enzyme_autodiff((void *)remote, 2.0) != 12.0;
#else
  double x = 0.8, got = __enzyme_autodiff((void *)local, x);
  double want = cos(x) * x + sin(x);
  if (fabs(got - want) > 1e-12 * fabs(want)) {
    fprintf(stderr, "FAIL: d local/dx = %.17g, expected %.17g\n", got, want);
    return 1;
  }
  return 0;
#endif
}
