; A value computed from an active input that does not flow into the return
; is constant (varied but not useful), and so is an argument used only by
; such values. With a void or integer return, nothing is active.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

declare double @sin(double)

define double @f(double %x, double %y) {
  %dead = fmul double %y, %y
  %s = call double @sin(double %dead)
  %c = fcmp olt double %s, 0.0
  %r = fmul double %x, 2.0
  %sel = select i1 %c, double %r, double %x
  ret double %sel
}

define void @no_return(double %x) {
  %m = fmul double %x, %x
  ret void
}

define i32 @int_return(double %x) {
  %m = fmul double %x, %x
  %i = fptosi double %m to i32
  ret i32 %i
}

; %y only feeds the condition of the select: no derivative reaches it.
; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    constant arg %y
; CHECK-NEXT:    constant %dead = fmul
; CHECK-NEXT:    constant %s = call
; CHECK-NEXT:    constant %c = fcmp
; CHECK-NEXT:    active   %r = fmul
; CHECK-NEXT:    active   %sel = select
; CHECK-LABEL: activity of 'no_return':
; CHECK-NEXT:    constant arg %x
; CHECK-NEXT:    constant %m = fmul
; CHECK-LABEL: activity of 'int_return':
; CHECK-NEXT:    constant arg %x
; CHECK-NEXT:    constant %m = fmul
; CHECK-NEXT:    constant %i = fptosi
