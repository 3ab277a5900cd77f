; d(x / y) = (1/y, -r/y) with r = x/y, i.e. -x/y^2. The partial -r/y is
; applied to the seed as (seed / y) * -r, so that once CSE runs both
; operands share the division by y (two divisions, not three).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O2>' -S %s | FileCheck %s --check-prefix=OPT

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK-DAG:     [[RECIP:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-DAG:     [[NEGX:%.*]] = fneg double %x
; CHECK-DAG:     [[NEGR:%.*]] = fdiv double [[NEGX]], %y
; CHECK-DAG:     [[SEEDY:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-DAG:     [[DY:%.*]] = fmul double [[SEEDY]], [[NEGR]]
; CHECK-DAG:     [[GX:%.*]] = fadd double [[RECIP]], 0.000000e+00
; CHECK-DAG:     [[GY:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK:         [[S:%.*]] = insertvalue { double, double } poison, double [[GX]], 0
; CHECK-NEXT:    insertvalue { double, double } [[S]], double [[GY]], 1

; OPT-LABEL: define internal { double, double } @f.adjoint.grad(
; OPT-COUNT-2: fdiv double
; OPT-NOT:     fdiv
; OPT:         ret
