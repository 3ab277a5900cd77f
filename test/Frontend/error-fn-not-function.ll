; The function to differentiate must be known at compile time; a pointer
; loaded from memory is rejected.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@fp = global ptr null
declare double @__enzyme_autodiff(ptr, ...)

define double @caller(double %x) {
  %f = load ptr, ptr @fp
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr %f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}in function caller{{.*}}adjoint: the first argument of __enzyme_autodiff must be a function known at compile time
