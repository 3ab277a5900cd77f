; A call to a function defined in the module (even noinline) is inlined into
; the clone being differentiated, so it needs no support of its own:
; d(sq(x) + x)/dx = 2x + 1.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @sq(double %x) noinline {
  %m = fmul double %x, %x
  ret double %m
}

define double @f(double %x) {
  %s = call double @sq(double %x)
  %r = fadd double %s, %x
  ret double %r
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; The original functions are untouched.
; CHECK-LABEL: define double @f(double %x)
; CHECK:         call double @sq(double %x)
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x)
; CHECK-NOT:     call
; CHECK:         [[A:%.*]] = fadd double %x, 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fadd double [[A]], %x
; CHECK-NEXT:    ret double [[B]]
