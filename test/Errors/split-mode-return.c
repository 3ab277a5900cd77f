// __enzyme_augmentfwd returns the tape and fn's result; a declared return
// type that cannot hold them is an error naming what is returned. A reverse
// call without its tape is one too.
// RUN: not %clang-adjoint -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit

double __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

double f(double x) { return x * x; }

double g(double x) { return __enzyme_augmentfwd((void *)f, x); }
// CHECK-DAG: split-mode-return.c:[[@LINE-1]]:{{[0-9]+}}: error: adjoint: __enzyme_augmentfwd is declared to return double but the augmented forward of 'f' returns { ptr, double } (the tape, unless enzyme_tape gives its buffer; then the result, if any, and its shadow, if a pointer); declare that type

void h(double x) { __enzyme_reverse((void *)f, x, 1.0); }
// CHECK-DAG: split-mode-return.c:[[@LINE-1]]:{{[0-9]+}}: error: adjoint: __enzyme_reverse needs the tape that __enzyme_augmentfwd returned as its last argument
