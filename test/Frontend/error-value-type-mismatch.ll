; A value whose type cannot be converted to the parameter's type.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(ptr %p) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p)
  ret double %r
}

; CHECK: error: {{.*}}adjoint: the value passed for parameter 1 of 'f' has type ptr but the parameter has type double
