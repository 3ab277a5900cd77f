; C's default argument promotions are undone: a float passed through `...`
; arrives as double and a short as int; each is converted back to the type
; of the parameter it binds to.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare float @__enzyme_autodiff(ptr, ...)

define float @f(float %x, i16 %n) {
  %nf = sitofp i16 %n to float
  %m = fmul float %x, %nf
  ret float %m
}

define float @caller(float %x, i16 %n) {
  %xd = fpext float %x to double
  %ni = sext i16 %n to i32
  %k = load i32, ptr @enzyme_const
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @f, double %xd, i32 %k, i32 %ni)
  ret float %g
}

; CHECK-LABEL: define float @caller(float %x, i16 %n)
; CHECK-DAG:     [[X:%.*]] = fptrunc double %xd to float
; CHECK-DAG:     [[N:%.*]] = trunc i32 %ni to i16
; CHECK:         call float @f.adjoint.grad(float [[X]], i16 [[N]])
