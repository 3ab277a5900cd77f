// flang marks no module as LTO bitcode, so the plugin recognises flang's
// full-LTO pre-link pipeline by what it leaves out, and leaves the request
// of a Fortran file for a C function of this file to the link.
// REQUIRES: flang
// RUN: %flang -O2 -flto -fpass-plugin=%adjoint-plugin -c %S/Inputs/flang-caller.f90 -o %t.caller.o
// RUN: llvm-dis %t.caller.o -o - | FileCheck %s
// RUN: %clang-adjoint -O2 -flto -c %s -o %t.wobble.o
// RUN: %flang -flto -fuse-ld=lld -Wl,--load-pass-plugin=%adjoint-plugin %t.caller.o %t.wobble.o -o %t
// RUN: %t
// CHECK: call {{.*}}@__enzyme_autodiff(ptr {{.*}}@wobble
#include <math.h>

double wobble(double x) { return sin(x) * x * x; }
