; A call to an unknown external function is fine when no derivative flows
; through it: its argument is constant here (an enzyme_const parameter).
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @mystery(double)

define double @f(double %x, double %c) {
  %m = call double @mystery(double %c)
  %r = fmul double %m, %x
  ret double %r
}

define double @caller(double %x, double %c) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, double %c)
  ret double %g
}

; d/dx = mystery(c).
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, double %c)
; CHECK:         [[M:%.*]] = {{(tail )?}}call double @mystery(double %c)
; CHECK-NEXT:    [[G:%.*]] = fadd double [[M]], 0.000000e+00
; CHECK-NEXT:    ret double [[G]]
