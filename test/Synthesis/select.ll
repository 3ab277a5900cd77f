; select routes the adjoint to the chosen operand: for
; r = x > y ? x*x : y, dr/dx = (x > y ? 1 : 0) * 2x and dr/dy = x > y ? 0 : 1.
; The condition receives no derivative.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %c = fcmp ogt double %x, %y
  %sq = fmul double %x, %x
  %r = select i1 %c, double %sq, double %y
  ret double %r
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK:         [[C:%.*]] = fcmp ogt double %x, %y
; CHECK-DAG:     [[ADJSQ:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; CHECK-DAG:     [[DY:%.*]] = select i1 [[C]], double 0.000000e+00, double 1.000000e+00
; CHECK-COUNT-2: fmul double [[ADJSQ]], %x
; CHECK:         insertvalue { double, double } %{{.*}}, double [[DY]], 1
