; Pointers moved as integers, as the optimizer moves a std::unique_ptr: a
; ptrtoint stored as an i64, and a vector of two pointers copied as
; <2 x i64>. They are rewritten into pointer stores and loads before
; activity analysis (RetypeAccesses.cpp), so each pointer's shadow follows
; it into shadow memory.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

; slots[0] = x (as an integer); then slots[k][0]^2.
define double @stored(ptr %slots, ptr %x, i64 %k) {
  %bits = ptrtoint ptr %x to i64
  store i64 %bits, ptr %slots
  %slot = getelementptr ptr, ptr %slots, i64 %k
  %p = load ptr, ptr %slot
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

; dst[0..1] = src[0..1] as one <2 x i64>; then dst[0][0] * dst[1][0].
define double @copied(ptr %dst, ptr %src) {
  %pair = load <2 x i64>, ptr %src, align 8
  store <2 x i64> %pair, ptr %dst, align 8
  %p = load ptr, ptr %dst
  %dst1 = getelementptr ptr, ptr %dst, i64 1
  %q = load ptr, ptr %dst1
  %u = load double, ptr %p
  %v = load double, ptr %q
  %r = fmul double %u, %v
  ret double %r
}

define void @caller(ptr %s, ptr %ds, ptr %x, ptr %dx, ptr %d, ptr %dd) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @stored, ptr %s, ptr %ds,
                                          ptr %x, ptr %dx, i64 0)
  call void (ptr, ...) @__enzyme_autodiff(ptr @copied, ptr %d, ptr %dd,
                                          ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @stored.adjoint.grad(ptr %slots, ptr %slots.shadow, ptr %x, ptr %x.shadow, i64 %k)
; CHECK:         store ptr %x, ptr %slots
; CHECK:         store ptr %x.shadow, ptr %slots.shadow

; CHECK-LABEL: define internal void @copied.adjoint.grad(ptr %dst, ptr %dst.shadow, ptr %src, ptr %src.shadow)
; CHECK-NOT:     <2 x i64>
; CHECK:         [[LANE0:%.*]] = load ptr, ptr %src, align 8
; CHECK-NEXT:    [[LANE0S:%.*]] = load ptr, ptr %src.shadow, align 8
; CHECK:         [[LANE1:%.*]] = load ptr, ptr {{%.*}}, align 8
; CHECK-NEXT:    [[LANE1S:%.*]] = load ptr, ptr {{%.*}}, align 8
; CHECK:         store ptr [[LANE0]], ptr %dst, align 8
; CHECK-NEXT:    store ptr [[LANE0S]], ptr %dst.shadow, align 8
; CHECK:         store ptr [[LANE1]], ptr [[AT:%.*]], align 8
; CHECK:         store ptr [[LANE1S]], ptr {{%.*}}, align 8
; CHECK-NOT:     <2 x i64>
; CHECK:         ret void
