; Reading floating-point data through a differentiated (enzyme_dup) pointer
; is not supported yet.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define double @caller(ptr %p, ptr %dp) {
  %d = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %p, ptr %dp)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: reading floating-point data through a differentiated pointer is not supported yet (in the gradient of 'f' requested at function 'caller')
