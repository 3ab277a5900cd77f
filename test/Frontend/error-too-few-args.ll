; Fewer arguments than the function has parameters.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}in function caller {{.*}}adjoint: too few arguments to __enzyme_autodiff: missing a value for parameter 2 of 'f' ('f' takes 2 parameters)
