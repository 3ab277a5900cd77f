; d(x * y) = (y, x); and d(x * x)/dx = 2x, the two uses of x accumulating.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_autodiff1(ptr, ...)

define double @f(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define double @square(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

define double @caller1(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff1(ptr @square, double %x)
  ret double %g
}

; The gradient of x is y and the gradient of y is x (the +0.0 turns an
; untouched -0.0 adjoint into +0.0).
; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK-NOT:     fmul
; CHECK-DAG:     [[DX:%.*]] = fadd double %y, 0.000000e+00
; CHECK-DAG:     [[DY:%.*]] = fadd double %x, 0.000000e+00
; CHECK:         [[S:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; CHECK-NEXT:    [[S2:%.*]] = insertvalue { double, double } [[S]], double [[DY]], 1
; CHECK-NEXT:    ret { double, double } [[S2]]

; CHECK-LABEL: define internal double @square.adjoint.grad(double %x)
; CHECK:         [[TWOX:%.*]] = fadd double %x, %x
; CHECK-NEXT:    [[G:%.*]] = fadd double [[TWOX]], 0.000000e+00
; CHECK-NEXT:    ret double [[G]]
