; A shadow whose type cannot be converted to the parameter's type.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @g(ptr %p) {
  ret double 0.0
}

define double @caller(ptr %p) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %p, double 1.0)
  ret double %r
}

; CHECK: error: {{.*}}adjoint: the shadow passed for parameter 1 of 'g' has type double but the parameter has type ptr
