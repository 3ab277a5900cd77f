// The function to differentiate is declared but no bitcode linked into the
// program defines it: nowhere at all, or only in an object compiled
// without -flto. The link-time run of the plugin reports it by name, at
// the call's source line, and the link fails.
// RUN: %clang -flto -O2 -g -c %s -o %t.main.o
// RUN: not %clang-lto-link %t.main.o -lm -o %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -c %S/Inputs/thin-remote.c -o %t.native.o
// RUN: not %clang-lto-link %t.main.o %t.native.o -lm -o %t 2>&1 | FileCheck %s
// CHECK: error: {{.*}}error-undefined.c:[[@LINE+6]]:{{[0-9]+}}: {{.*}}adjoint: cannot differentiate 'remote': no bitcode file linked into the program defines it; compile the file that defines it with -flto and link it (objects and libraries compiled without -flto cannot be differentiated)
double __enzyme_autodiff(void *, ...);

double remote(double x);

int main(void) {
  return __enzyme_autodiff((void *)remote, 2.0) != 12.0;
}
