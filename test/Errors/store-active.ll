; Storing a value that carries a derivative into a global variable (which
; has no shadow) is an error: its derivative would be lost.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@g = global double 0.0
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  store double %m, ptr @g
  ret double %m
}

define double @caller(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK: error: {{.*}}adjoint: storing a value that carries a derivative into global variable 'g' is not supported: its derivative would be lost; write it through an enzyme_dup pointer instead (in the gradient of 'f' requested at function 'caller')
