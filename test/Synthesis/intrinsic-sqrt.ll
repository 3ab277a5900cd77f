; d sqrt(x) = 0.5 / sqrt(x), reusing the primal result.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sqrt.f64(double)

define double @f(double %x) {
  %s = call double @llvm.sqrt.f64(double %x)
  ret double %s
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x)
; CHECK:         [[S:%.*]] = call double @llvm.sqrt.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fdiv double 5.000000e-01, [[S]]
; CHECK-NEXT:    [[G:%.*]] = fadd double [[D]], 0.000000e+00
; CHECK-NEXT:    ret double [[G]]
