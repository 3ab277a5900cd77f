; A function with no body in this module cannot be differentiated; the
; message names it.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @ext(double)
declare double @__enzyme_autodiff(ptr, ...)

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @ext, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: cannot differentiate 'ext': its body is not in this translation unit
