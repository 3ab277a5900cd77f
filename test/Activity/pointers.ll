; Pointer arguments are enzyme_dup by default: a pointer whose data reaches
; the return is active, and so are the addresses derived from it and the
; floats loaded through them. Loads from a global, or of integers, are
; constant; a pointer whose data is not used for the result is constant.
; RUN: %opt-adjoint -passes='print<adjoint-activity>' -disable-output %s | FileCheck %s

@g = global double 1.0

define double @f(ptr %p, ptr %q, double %x) {
  %v = load double, ptr %p
  %w = load double, ptr @g
  %i = load i32, ptr %q
  %gep = getelementptr double, ptr %p, i64 1
  %v1 = load double, ptr %gep
  %m = fmul double %v, %w
  %s = fadd double %m, %v1
  ret double %s
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    active   arg %p
; CHECK-NEXT:    constant arg %q
; CHECK-NEXT:    constant arg %x
; CHECK-NEXT:    active   %v = load
; CHECK-NEXT:    constant %w = load
; CHECK-NEXT:    constant %i = load
; CHECK-NEXT:    active   %gep = getelementptr
; CHECK-NEXT:    active   %v1 = load
; CHECK-NEXT:    active   %m = fmul
; CHECK-NEXT:    active   %s = fadd
