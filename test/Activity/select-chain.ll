; Activity flows through chains of selects to the chosen operands; the
; conditions (i1) are constant even when computed from active values, and a
; select between constants is constant.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

define double @f(double %x, double %y, i32 %n) {
  %c1 = fcmp ogt double %x, %y
  %s1 = select i1 %c1, double %x, double %y
  %k = sitofp i32 %n to double
  %c2 = icmp sgt i32 %n, 0
  %s2 = select i1 %c2, double %k, double 1.0
  %s3 = select i1 %c2, double %s1, double %s2
  %r = fmul double %s3, %s2
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    active   arg %y
; CHECK-NEXT:    constant arg %n
; CHECK-NEXT:    constant %c1 = fcmp
; CHECK-NEXT:    active   %s1 = select
; CHECK-NEXT:    constant %k = sitofp
; CHECK-NEXT:    constant %c2 = icmp
; CHECK-NEXT:    constant %s2 = select
; CHECK-NEXT:    active   %s3 = select
; CHECK-NEXT:    active   %r = fmul
