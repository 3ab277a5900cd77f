; struct { float a, b; } is returned as <2 x float> on x86-64: the float
; gradients are packed into the vector lanes in argument order. The double
; arguments (C's variadic promotion) are converted back to float first.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare <2 x float> @__enzyme_autodiff(ptr, ...)

define float @f(float %x, float %y) {
  %m = fmul float %x, %x
  %r = fmul float %m, %y
  ret float %r
}

define <2 x float> @caller(float %x, float %y) {
  %xd = fpext float %x to double
  %yd = fpext float %y to double
  %g = call <2 x float> (ptr, ...) @__enzyme_autodiff(ptr @f, double %xd, double %yd)
  ret <2 x float> %g
}

; CHECK-LABEL: define <2 x float> @caller(float %x, float %y)
; CHECK-DAG:     [[X:%.*]] = fptrunc double %xd to float
; CHECK-DAG:     [[Y:%.*]] = fptrunc double %yd to float
; CHECK:         [[G:%.*]] = call { float, float } @f.adjoint.grad(float [[X]], float [[Y]])
; CHECK-DAG:     [[DX:%.*]] = extractvalue { float, float } [[G]], 0
; CHECK-DAG:     [[DY:%.*]] = extractvalue { float, float } [[G]], 1
; CHECK:         [[V:%.*]] = insertelement <2 x float> poison, float [[DX]], i64 0
; CHECK-NEXT:    [[V2:%.*]] = insertelement <2 x float> [[V]], float [[DY]], i64 1
; CHECK-NEXT:    ret <2 x float> [[V2]]
