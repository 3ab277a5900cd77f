; An __enzyme_autodiff reached by invoke (C++ code in a try block) is
; replaced by a call followed by a branch to the normal destination; the
; landing pad loses that predecessor.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @__gxx_personality_v0(...)

define double @f(double %x) {
  %m = fmul double %x, 3.0
  ret double %m
}

define double @caller(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %g = invoke double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
          to label %ok unwind label %lpad
ok:
  ret double %g
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define double @caller(
; CHECK:       entry:
; CHECK-NEXT:    [[G:%.*]] = call double @f.adjoint.grad(double %x)
; CHECK-NEXT:    br label %ok
; CHECK:       ok:
; CHECK-NEXT:    ret double [[G]]
