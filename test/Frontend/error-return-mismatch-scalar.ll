; Two enzyme_out arguments but __enzyme_autodiff declared to return double.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: __enzyme_autodiff is declared to return double but 'f' has 2 enzyme_out gradient value(s) of type { double, double }
