; The printer reports every defined function, in module order, and skips
; declarations.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

declare double @ext(double)

define double @a(double %x) {
  %e = call double @ext(double %x)
  ret double %e
}

define float @b(float %x) {
  %n = fneg float %x
  ret float %n
}

; CHECK-NOT:   activity of 'ext'
; CHECK:       activity of 'a':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    active   %e = call
; CHECK-NEXT:  activity of 'b':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    active   %n = fneg
; CHECK-NOT:   activity of
