; Only a floating-point return value can be the differentiated output: a
; function returning a struct of doubles is rejected with a remedy.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define { double, double } @f(double %x) {
  %m = fmul double %x, %x
  %a = insertvalue { double, double } poison, double %m, 0
  %b = insertvalue { double, double } %a, double %x, 1
  ret { double, double } %b
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: the function returns a struct or array of floating-point values; only a floating-point return value can be the differentiated output
