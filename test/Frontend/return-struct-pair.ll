; struct { double dx, dy; } returned in registers arrives as {double, double}:
; the two gradients fill it in argument order.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define { double, double } @caller(double %x, double %y)
; CHECK:         [[G:%.*]] = call { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK-NOT:     __enzyme_autodiff
; CHECK:         ret { double, double }
; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
