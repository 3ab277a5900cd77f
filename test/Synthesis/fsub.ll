; d(x - y) = (1, -1).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fsub double %x, %y
  ret double %r
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK:         ret { double, double } { double 1.000000e+00, double -1.000000e+00 }
