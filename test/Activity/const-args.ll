; Arguments whose default activity is enzyme_const (integers) are constant,
; and so is everything computed only from them, floats included. A pointer
; (enzyme_dup by default) whose data never reaches the return is constant.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

define double @f(double %x, i32 %n, ptr %p) {
  %nf = sitofp i32 %n to double
  %sq = fmul double %nf, %nf
  %c = fadd double %sq, 1.0
  %m = fmul double %x, %c
  ret double %m
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    constant arg %n
; CHECK-NEXT:    constant arg %p
; CHECK-NEXT:    constant %nf = sitofp
; CHECK-NEXT:    constant %sq = fmul
; CHECK-NEXT:    constant %c = fadd
; CHECK-NEXT:    active   %m = fmul
