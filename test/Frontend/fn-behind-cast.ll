; The function may reach the call behind an alias.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

@f.alias = alias double (double), ptr @f

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f.alias, double %x)
  %h = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %s = fadd double %g, %h
  ret double %s
}

; Both calls, through the alias and directly, are served by the same
; gradient of f.
; CHECK-LABEL: define double @caller(
; CHECK:         call double @f.adjoint.grad(double %x)
; CHECK:         call double @f.adjoint.grad(double %x)
; CHECK-NOT:     __enzyme_autodiff
