; When the caller ignores the result (declares __enzyme_autodiff void), the
; gradient function is still called, for its effect on shadows, and its
; result is dropped.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ptr %p) {
  %m = fmul double %x, %x
  ret double %m
}

define void @caller(double %x, ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define void @caller(
; CHECK-NEXT:    call double @f.adjoint.grad(double %x, ptr %p, ptr %dp)
; CHECK-NEXT:    ret void
