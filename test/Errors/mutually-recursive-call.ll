; With mutual recursion f -> g -> f, g is inlined into f's clone once and
; the call back to f remains: an error naming f.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = call double @g(double %x)
  ret double %r
}

define double @g(double %x) {
entry:
  %c = fcmp ogt double %x, 1.0
  br i1 %c, label %a, label %b
a:
  %h = fmul double %x, 0.5
  %r = call double @f(double %h)
  ret double %r
b:
  ret double %x
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK: error: {{.*}}adjoint: call to 'f' cannot be differentiated yet: it is recursive or too large to inline
