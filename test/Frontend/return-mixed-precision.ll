; The declared return type may differ in precision from the gradients: each
; leaf is converted (here a float gradient into a double field, a double
; gradient into a float field, and a single float gradient returned as double).
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare { double, float } @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_autodiff1(ptr, ...)

define double @f(float %x, double %y) {
  %xd = fpext float %x to double
  %m = fmul double %xd, %y
  ret double %m
}

define { double, float } @caller(float %x, double %y) {
  %g = call { double, float } (ptr, ...) @__enzyme_autodiff(ptr @f, float %x, double %y)
  ret { double, float } %g
}

define double @caller1(float %x, double %y) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff1(ptr @f, float %x, i32 %k, double %y)
  ret double %g
}

; CHECK-LABEL: define { double, float } @caller(
; CHECK:         [[G:%.*]] = call { float, double } @f.adjoint.grad{{[.0-9]*}}(float %x, double %y)
; CHECK-DAG:     [[DX:%.*]] = extractvalue { float, double } [[G]], 0
; CHECK-DAG:     [[DY:%.*]] = extractvalue { float, double } [[G]], 1
; CHECK:         [[DXD:%.*]] = fpext float [[DX]] to double
; CHECK-NEXT:    [[S:%.*]] = insertvalue { double, float } poison, double [[DXD]], 0
; CHECK-NEXT:    [[DYF:%.*]] = fptrunc double [[DY]] to float
; CHECK-NEXT:    insertvalue { double, float } [[S]], float [[DYF]], 1

; CHECK-LABEL: define double @caller1(
; CHECK:         [[G1:%.*]] = call float @f.adjoint.grad{{[.0-9]*}}(float %x, double %y)
; CHECK-NEXT:    [[R:%.*]] = fpext float [[G1]] to double
; CHECK-NEXT:    ret double [[R]]
