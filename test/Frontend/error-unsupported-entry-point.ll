; Enzyme entry points other than __enzyme_autodiff (forward mode, ...) are
; not implemented yet: a clear error rather than an undefined symbol at
; link time.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: '__enzyme_fwddiff' is not supported yet; Adjoint implements reverse mode through __enzyme_autodiff
