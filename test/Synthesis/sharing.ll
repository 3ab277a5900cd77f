; Calls with the same function and activity pattern share one generated
; gradient, even from different callers and through differently declared
; entry points; a different pattern gets its own.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | grep -c 'define internal' | FileCheck %s --check-prefix=COUNT

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_autodiff_other(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @a(double %x, double %y) {
  %k = load i32, ptr @enzyme_const
  %g1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, double %y)
  %g2 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %y, i32 %k, double %x)
  %g3 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %k, double %x, double %y)
  %s = fadd double %g1, %g2
  %t = fadd double %s, %g3
  ret double %t
}

define double @b(double %x, double %y) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff_other(ptr @f, double %x, i32 %k, double %y)
  ret double %g
}

; CHECK-LABEL: define double @a(
; CHECK:         call double [[OUT_CONST:@f\.adjoint\.grad[.0-9]*]](double %x, double %y)
; CHECK:         call double [[OUT_CONST]](double %y, double %x)
; CHECK:         call double [[CONST_OUT:@f\.adjoint\.grad[.0-9]*]](double %x, double %y)
; CHECK-LABEL: define double @b(
; CHECK:         call double [[OUT_CONST]](double %x, double %y)

; Exactly two gradient functions, one per pattern.
; CHECK-DAG:   define internal double [[OUT_CONST]](double %x, double %y)
; CHECK-DAG:   define internal double [[CONST_OUT]](double %x, double %y)
; COUNT: {{^}}2{{$}}
