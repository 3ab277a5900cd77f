; A run-time index into a fixed-size array inside a struct selects one of
; that array's elements, not any multiple of the element size: s.c[i] with
; c = [2 x double] at offset 16 says Double at 16 and 24 only, and leaves
; the float at offset 8 alone (a pattern "every 8 bytes" would collide with
; it and make byte 8 Anything).
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s 2>&1 | FileCheck %s

%struct.S = type { double, float, i32, [2 x double] }

define double @pick(ptr %s, i64 %i) {
  %b.p = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 1
  %b = load float, ptr %b.p
  %c = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 3
  %e = getelementptr inbounds [2 x double], ptr %c, i64 0, i64 %i
  %v = load double, ptr %e
  %w = fpext float %b to double
  %r = fadd double %v, %w
  ret double %r
}

; CHECK-LABEL: types of 'pick':
; CHECK-NEXT:    arg %s: {[]:Pointer, [8]:Float, [16]:Double, [24]:Double}
; CHECK:         %e = getelementptr: {[]:Pointer, [0]:Double, [8]:Double}
