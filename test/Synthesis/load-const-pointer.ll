; Memory behind an enzyme_const pointer is constant data: loading from it is
; fine (unlike through a differentiated pointer). d(p[0] * x)/dx = p[0].
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}

define double @caller(double %x, ptr %p) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr @enzyme_const, ptr %p)
  ret double %g
}

; The constant pointer gets no shadow.
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:    call double @f.adjoint.grad(double %x, ptr %p)
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, ptr %p)
; CHECK:         [[V:%.*]] = load double, ptr %p
; CHECK-NEXT:    [[G:%.*]] = fadd double [[V]], 0.000000e+00
; CHECK-NEXT:    ret double [[G]]
