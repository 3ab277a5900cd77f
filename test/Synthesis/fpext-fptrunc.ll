; Conversions between floating-point types pass the adjoint through,
; converted back to the operand's type: f(x, y) = x + (float)y * x with x a
; float and y a double has gradients (1 + (float)y, (double)x).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { float, double } @__enzyme_autodiff(ptr, ...)

define double @f(float %x, double %y) {
  %e = fpext float %x to double
  %t = fptrunc double %y to float
  %m = fmul float %t, %x
  %me = fpext float %m to double
  %s = fadd double %e, %me
  ret double %s
}

define { float, double } @caller(float %x, double %y) {
  %g = call { float, double } (ptr, ...) @__enzyme_autodiff(ptr @f, float %x, double %y)
  ret { float, double } %g
}

; CHECK-LABEL: define internal { float, double } @f.adjoint.grad(float %x, double %y)
; CHECK-DAG:     [[T:%.*]] = fptrunc double %y to float
; CHECK-DAG:     [[DY:%.*]] = fpext float %x to double
; CHECK-DAG:     [[DX:%.*]] = fadd float [[T]], 1.000000e+00
; CHECK:         [[S:%.*]] = insertvalue { float, double } poison, float [[DX]], 0
; CHECK-NEXT:    insertvalue { float, double } [[S]], double {{.*}}, 1
