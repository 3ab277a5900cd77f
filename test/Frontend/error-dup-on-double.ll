; Only pointers have shadows: enzyme_dup on a double is rejected and the
; message suggests enzyme_out.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x, double %dx) {
  %d = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, double %x, double %dx)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: enzyme_dup on parameter 1 of 'f' of type double: only pointers have shadows; use enzyme_out
