; enzyme_dupnoneed on an integer: only pointers have shadows, and the message
; suggests enzyme_const.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_dupnoneed = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i32 %n) {
  ret double %x
}

define double @caller(double %x, i32 %n) {
  %d = load i32, ptr @enzyme_dupnoneed
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %d, i32 %n, i32 %n)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: enzyme_dupnoneed on parameter 2 of 'f' of type i32: only pointers have shadows; use enzyme_const
