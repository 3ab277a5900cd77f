; More arguments than the function has parameters.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: too many arguments to __enzyme_autodiff: 'f' takes 1 parameter
