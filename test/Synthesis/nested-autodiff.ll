; Second derivatives: differentiating a function that itself calls
; __enzyme_autodiff. d/dx [d/dx x^3] = 6x.
; XFAIL: *
; BUG: the calls are processed in use-list order, so here (dsq defined
; before caller) the outer request is served first; its clone still
; contains the inner __enzyme_autodiff call, which is reported as "call to
; external function '__enzyme_autodiff'". With caller defined first, the
; inner call is lowered first and the result is correct.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @cube(double %x) {
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}

define double @dcube(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @cube, double %x)
  ret double %g
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @dcube, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @dcube.adjoint.grad(double %x)
; CHECK:         [[T:%.*]] = fmul double %x, 3.000000e+00
; CHECK-NEXT:    fadd double [[T]], [[T]]
