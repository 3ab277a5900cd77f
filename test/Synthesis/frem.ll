; frem(x, y) = x - trunc(x/y) * y: d/dx = 1, d/dy = -trunc(x/y).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = frem double %x, %y
  ret double %r
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK:         [[Q:%.*]] = fdiv double %x, %y
; CHECK-NEXT:    [[T:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; CHECK-NEXT:    [[DY:%.*]] = fsub double 0.000000e+00, [[T]]
; CHECK-NEXT:    [[S:%.*]] = insertvalue { double, double } { double 1.000000e+00, double poison }, double [[DY]], 1
; CHECK-NEXT:    ret { double, double } [[S]]
