; Inline assembly on an active value cannot be differentiated.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = call double asm "fsqrt", "=t,0"(double %x)
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: inline assembly cannot be differentiated; compute this value in C, or pass its inputs as enzyme_const (in the gradient of 'f' requested at function 'caller')
