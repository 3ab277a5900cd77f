; An indirect call on an active value cannot be differentiated yet.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@fp = global ptr null
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %p = load ptr, ptr @fp
  %r = call double %p(double %x)
  ret double %r
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: indirect calls cannot be differentiated yet (in the gradient of 'f' requested at function 'caller')
