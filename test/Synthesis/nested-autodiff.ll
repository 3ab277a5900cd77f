; Second derivatives: differentiating a function that itself calls
; __enzyme_autodiff. d/dx [d/dx x^3] = d/dx 3x^2 = 6x. The inner request
; must be served before the outer one clones its function, whichever order
; the functions appear in: @early is defined before @dcube, @late after it.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @early(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @dcube, double %x)
  ret double %g
}

define double @cube(double %x) {
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}

define double @dcube(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @cube, double %x)
  ret double %g
}

define double @late(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @dcube, double %x)
  ret double %g
}

; Both outer requests share the second-derivative function.
; CHECK-LABEL: define double @early(
; CHECK:         call double @dcube.adjoint.grad(
; CHECK-LABEL: define double @late(
; CHECK:         call double @dcube.adjoint.grad(
; CHECK-NOT:   __enzyme_autodiff
; CHECK-LABEL: define internal double @dcube.adjoint.grad(double %x)
; CHECK:         [[T:%.*]] = fmul double %x, 3.000000e+00
; CHECK-NEXT:    fadd double [[T]], [[T]]
