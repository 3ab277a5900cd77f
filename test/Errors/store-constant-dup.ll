; Overwriting memory behind a differentiated pointer, even with a constant,
; must consume the shadow (set it to zero, see the API's "Consumption"
; rule). Until memory is supported this must be an error.
; XFAIL: *
; BUG: a store of a constant is accepted and the shadow of out keeps the
; caller's seed.
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

; CHECK: error: {{.*}}adjoint: {{.*}}store
