// A C++ function inside a static library, differentiated from the program
// that links the library, through LTO. The library is two files (a class
// in one, the function in the other, namespaced and mangled), built the two
// ways the user guide describes:
// 1. objects compiled with -flto, archived with llvm-ar;
// 2. ordinary objects compiled with -fembed-bitcode (an archive that also
//    links without LTO), whose .llvmbc sections are renamed to .llvm.lto
//    with llvm-objcopy so that lld's --fat-lto-objects links their bitcode.
// Linking the archive of recipe 2 as it is gives the error that says what
// is missing. Reference: long-double finite differences of the same code.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx-adjoint -flto -O2 -c %s -o %t/main.o
//
// RUN: %clang --driver-mode=g++ -flto -O2 -c %S/Inputs/spring.cpp -o %t/spring.o
// RUN: %clang --driver-mode=g++ -flto -O2 -c %S/Inputs/chain.cpp -o %t/chain.o
// RUN: llvm-ar rcs %t/libsprings.a %t/spring.o %t/chain.o
// RUN: %clangxx-lto-link %t/main.o -L%t -lsprings -o %t/bitcode && %t/bitcode
//
// RUN: %clang --driver-mode=g++ -fembed-bitcode -O2 -c %S/Inputs/spring.cpp -o %t/spring-embed.o
// RUN: %clang --driver-mode=g++ -fembed-bitcode -O2 -c %S/Inputs/chain.cpp -o %t/chain-embed.o
// RUN: llvm-ar rcs %t/libsprings-embed.a %t/spring-embed.o %t/chain-embed.o
// RUN: llvm-objcopy --rename-section .llvmbc=.llvm.lto %t/libsprings-embed.a %t/libsprings-fat.a
// RUN: %clangxx-lto-link -Wl,--fat-lto-objects %t/main.o -L%t -lsprings-fat -o %t/embedded && %t/embedded
//
// RUN: not %clangxx-lto-link %t/main.o -L%t -lsprings-embed -o %t/bad 2>&1 | FileCheck %s
// CHECK: error: {{.*}}cannot differentiate 'springs::chainEnergy(double const*, int, springs::Spring const&)': no bitcode file linked into the program defines it
#include "Inputs/springs.h"

#include "gradcheck.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
}

constexpr int N = 6;

static long double chainAt(const long double *V) {
  double X[N];
  for (int I = 0; I != N; ++I)
    X[I] = V[I];
  return springs::chainEnergy(X, N, springs::Spring(3.0, 1.2));
}

int main() {
  double X[N] = {0.1, 0.9, 1.4, 0.7, -0.3, 0.2}, DX[N] = {};
  springs::Spring S(3.0, 1.2);
  __enzyme_autodiff((void *)springs::chainEnergy, enzyme_dup, X, DX,
                    enzyme_const, N, enzyme_const, &S);
  long double LX[N], Got[N];
  for (int I = 0; I != N; ++I) {
    LX[I] = X[I];
    Got[I] = DX[I];
  }
  gc_grad("chainEnergy", chainAt, N, LX, Got, GC_TOL_DOUBLE);
  return gc_finish();
}
