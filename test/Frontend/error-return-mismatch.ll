; The declared return type must hold one floating-point field per
; enzyme_out argument: {double, double} for a single gradient is an error.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define { double, double } @caller(double %x, double %y) {
  %k = load i32, ptr @enzyme_const
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, double %y)
  ret { double, double } %g
}

; CHECK: error: {{.*}}adjoint: __enzyme_autodiff is declared to return { double, double } but 'f' has 1 enzyme_out gradient value(s) of type double; declare a return type with one floating-point field per enzyme_out argument, in argument order
