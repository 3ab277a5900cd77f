; Overwriting memory behind a differentiated pointer, even with a constant,
; must consume the shadow (set it to zero, see the API's "Consumption"
; rule). Until memory is supported this must be an error.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %out, double %x) {
  store double 1.0, ptr %out
  ret void
}

define void @caller(ptr %out, ptr %dout, double %x) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %out, ptr %dout, double %x)
  ret void
}

; CHECK: error: {{.*}}adjoint: writing to memory that a differentiated (enzyme_dup) pointer points to is not supported yet
