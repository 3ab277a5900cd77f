; A call on a phi of functions is dispatched to one gradient per function
; (dispatch-phi.ll) only when every value of the phi is a known function.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @unknown(i1 %c, ptr %p, double %x) {
entry:
  br i1 %c, label %known, label %join
known:
  br label %join
join:
  %fn = phi ptr [ @f, %known ], [ %p, %entry ]
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %x)
  ret double %d
}

; CHECK: error: {{.*}}the first argument of __enzyme_autodiff must be a function known at compile time
