; Overwriting memory behind an enzyme_dup pointer consumes its shadow: the
; reverse hands the shadow to the stored value, then zeroes it (API
; contract, "Consumption"), even when the stored value is a constant. The
; primal store still happens.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %out, double %x) {
  store double 1.0, ptr %out
  %o1 = getelementptr inbounds double, ptr %out, i64 1
  %sq = fmul double %x, %x
  store double %sq, ptr %o1
  ret void
}

define double @caller(ptr %out, ptr %dout, double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %out, ptr %dout, double %x)
  ret double %g
}

; The adjoint of x is 2x times the seed found in dout[1].
; CHECK-LABEL: define internal double @f.adjoint.grad(ptr %out, ptr %out.shadow, double %x)
; CHECK:         store double 1.000000e+00, ptr %out
; CHECK:         store double %sq, ptr %o1
; CHECK:         [[SEED:%.*]] = load double, ptr %o1.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr %o1.shadow
; CHECK:         store double 0.000000e+00, ptr %out.shadow
; CHECK:         ret double
