; Bits of an active float manipulated as an integer and turned back into a
; float would lose the derivative silently; it is an error instead.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %i = bitcast double %x to i64
  %a = add i64 %i, 1
  %r = bitcast i64 %a to double
  ret double %r
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: the bits of a floating-point value that carries a derivative are manipulated as an integer
