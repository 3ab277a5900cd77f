; Without markers, floating-point arguments are enzyme_out, pointers are
; enzyme_dup (consuming a shadow) and integers are enzyme_const.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare { double, float } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ptr %p, i32 %n, float %y) {
  %yd = fpext float %y to double
  %m = fmul double %x, %yd
  ret double %m
}

define { double, float } @caller(double %x, ptr %p, ptr %dp, i32 %n, float %y) {
  %yd = fpext float %y to double
  %g = call { double, float } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp, i32 %n, double %yd)
  ret { double, float } %g
}

; CHECK-LABEL: define { double, float } @caller(
; CHECK:         call { double, float } @f.adjoint.grad(double %x, ptr %p, ptr %dp, i32 %n, float
; CHECK-LABEL: define internal { double, float } @f.adjoint.grad(double %x, ptr %p, ptr %p.shadow, i32 %n, float %y)
