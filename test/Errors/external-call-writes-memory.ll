; An external function that returns its results through pointers (sincos)
; receives an active value: the derivative flows through memory the
; analysis does not follow, so this must be an error naming the function.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare void @sincos(double, ptr, ptr)

define double @f(double %x) {
  %s = alloca double
  %c = alloca double
  call void @sincos(double %x, ptr %s, ptr %c)
  %sv = load double, ptr %s
  %cv = load double, ptr %c
  %m = fmul double %sv, %cv
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: call to 'sincos' receives a value that carries a derivative and may write results derived from it to memory
