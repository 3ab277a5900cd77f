; A marker as the last argument, with no value after it, is also too few
; arguments.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: too few arguments to __enzyme_autodiff: missing a value for parameter 2 of 'f'
