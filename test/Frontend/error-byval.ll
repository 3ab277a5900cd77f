; A struct passed by value (byval) is not supported yet.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

%S = type { double, double }
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr byval(%S) %s) {
  ret double 0.0
}

define double @caller(ptr %p) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: parameter 1 of 'f' is a struct passed by value, which is not supported yet
