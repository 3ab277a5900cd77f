; d(-x) = -1; the gradient of a negation chain is a constant.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s > %t
; RUN: FileCheck %s --check-prefix=F < %t
; RUN: FileCheck %s --check-prefix=G < %t

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %n = fneg double %x
  ret double %n
}

; -(-(3 * -x)): the derivative is -3.
define double @g(double %x) {
  %a = fneg double %x
  %b = fmul double %a, 3.0
  %c = fneg double %b
  %d = fneg double %c
  ret double %d
}

define double @caller(double %x) {
  %g1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %g2 = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x)
  %s = fadd double %g1, %g2
  ret double %s
}

; F-LABEL: define internal double @f.adjoint.grad(double %x)
; F:         ret double -1.000000e+00

; G-LABEL: define internal double @g.adjoint.grad(double %x)
; G:         ret double -3.000000e+00
