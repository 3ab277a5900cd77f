; A call to an external function without a body or a derivative rule is an
; error that names the function and suggests remedies.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare double @mystery(double)

define double @f(double %x) {
  %m = call double @mystery(double %x)
  %r = fmul double %m, %x
  ret double %r
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: call to external function 'mystery', which has no body and no derivative rule: define it in the same file (or, with link-time AD, in a file compiled with -flto), or mark the inputs it depends on enzyme_const (in the gradient of 'f' requested at function 'caller')
