; Activity flows through chains of phis: a phi is active when one of its
; incoming values is varied and it reaches the return. Phis merging only
; constants stay constant.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

define double @f(double %x, i1 %c1, i1 %c2, i32 %n) {
entry:
  %k = sitofp i32 %n to double
  br i1 %c1, label %a, label %b
a:
  %xa = fmul double %x, 3.0
  br label %m1
b:
  %kb = fadd double %k, 1.0
  br label %m1
m1:
  %p1 = phi double [ %xa, %a ], [ %kb, %b ]
  %q1 = phi double [ 2.0, %a ], [ %k, %b ]
  br i1 %c2, label %c, label %m2
c:
  %pc = fmul double %p1, %q1
  br label %m2
m2:
  %p2 = phi double [ %pc, %c ], [ 0.0, %m1 ]
  %q2 = phi double [ %q1, %c ], [ %k, %m1 ]
  %r = fadd double %p2, %q2
  ret double %r
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    constant arg %c1
; CHECK-NEXT:    constant arg %c2
; CHECK-NEXT:    constant arg %n
; CHECK-NEXT:    constant %k = sitofp
; CHECK-NEXT:    active   %xa = fmul
; CHECK-NEXT:    constant %kb = fadd
; CHECK-NEXT:    active   %p1 = phi
; CHECK-NEXT:    constant %q1 = phi
; CHECK-NEXT:    active   %pc = fmul
; CHECK-NEXT:    active   %p2 = phi
; CHECK-NEXT:    constant %q2 = phi
; CHECK-NEXT:    active   %r = fadd
