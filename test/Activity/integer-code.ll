; Integer code is constant: integers never carry derivatives, even when they
; are computed from an active float (fptosi) or turned back into one (sitofp).
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

define i32 @ints(i32 %a, i64 %b) {
  %m = mul i32 %a, %a
  %e = sext i32 %m to i64
  %s = add i64 %e, %b
  %t = trunc i64 %s to i32
  ret i32 %t
}

define double @through_int(double %x) {
  %i = fptosi double %x to i32
  %j = mul i32 %i, 3
  %d = sitofp i32 %j to double
  %r = fadd double %d, %x
  ret double %r
}

; CHECK-LABEL: activity of 'ints':
; CHECK-NEXT:    constant arg %a
; CHECK-NEXT:    constant arg %b
; CHECK-NEXT:    constant %m = mul
; CHECK-NEXT:    constant %e = sext
; CHECK-NEXT:    constant %s = add
; CHECK-NEXT:    constant %t = trunc
; CHECK-LABEL: activity of 'through_int':
; CHECK-NEXT:    active   arg %x
; CHECK-NEXT:    constant %i = fptosi
; CHECK-NEXT:    constant %j = mul
; CHECK-NEXT:    constant %d = sitofp
; CHECK-NEXT:    active   %r = fadd
