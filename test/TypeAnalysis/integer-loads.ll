; Optimized code copies doubles through integers (a struct assignment
; becomes i64 loads and stores). The integer IR type says nothing; the other
; uses of the same memory decide, through the store and back through the
; load.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

; The destination is read as a double afterwards.
define double @copy_then_read(ptr %dst, ptr %src) {
  %v = load i64, ptr %src
  store i64 %v, ptr %dst
  %x = load double, ptr %dst
  ret double %x
}

; CHECK-LABEL: types of 'copy_then_read':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %src: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %v = load: {[0]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; The source was written as a double before.
define void @write_then_copy(ptr %dst, ptr %src, double %a) {
  store double %a, ptr %src
  %v = load i64, ptr %src
  store i64 %v, ptr %dst
  ret void
}

; CHECK-LABEL: types of 'write_then_copy':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %src: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %a: {[]:Double}
; CHECK-NEXT:    %v = load: {[0]:Double}
; CHECK-NOT:     return:

; struct { double x; long k; } copied as two i64: only the first is a
; double, the second is an integer because it is multiplied.
define double @pair(ptr %dst, ptr %src) {
  %a = load i64, ptr %src
  %b.p = getelementptr inbounds i8, ptr %src, i64 8
  %b = load i64, ptr %b.p
  store i64 %a, ptr %dst
  %d.b = getelementptr inbounds i8, ptr %dst, i64 8
  store i64 %b, ptr %d.b
  %x = load double, ptr %dst
  %k = load i64, ptr %d.b
  %k2 = mul i64 %k, 4
  %y = sitofp i64 %k2 to double
  %r = fadd double %x, %y
  ret double %r
}

; CHECK-LABEL: types of 'pair':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [0]:Double, [8..15]:Integer}
; CHECK-NEXT:    arg %src: {[]:Pointer, [0]:Double, [8..15]:Integer}
; CHECK-NEXT:    %a = load: {[0]:Double}
; CHECK-NEXT:    %b.p = getelementptr: {[]:Pointer, [0..7]:Integer}
; CHECK-NEXT:    %b = load: {[0..7]:Integer}
; CHECK-NEXT:    %d.b = getelementptr: {[]:Pointer, [0..7]:Integer}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    %k = load: {[0..7]:Integer}
; CHECK-NEXT:    %k2 = mul: {[0..7]:Integer}
; CHECK-NEXT:    %y = sitofp: {[]:Double}
; CHECK-NEXT:    %r = fadd: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; struct { float a, b; } loaded as one i64 and split with shifts: each half
; is a float, and so is the memory.
define float @packed(ptr %p) {
  %v = load i64, ptr %p
  %lo = trunc i64 %v to i32
  %hi.s = lshr i64 %v, 32
  %hi = trunc i64 %hi.s to i32
  %a = bitcast i32 %lo to float
  %b = bitcast i32 %hi to float
  %r = fadd float %a, %b
  ret float %r
}

; CHECK-LABEL: types of 'packed':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Float, [4]:Float}
; CHECK-NEXT:    %v = load: {[0]:Float, [4]:Float}
; CHECK-NEXT:    %lo = trunc: {[0]:Float}
; CHECK-NEXT:    %hi.s = lshr: {[0]:Float}
; CHECK-NEXT:    %hi = trunc: {[0]:Float}
; CHECK-NEXT:    %a = bitcast: {[]:Float}
; CHECK-NEXT:    %b = bitcast: {[]:Float}
; CHECK-NEXT:    %r = fadd: {[]:Float}
; CHECK-NEXT:    return: {[]:Float}

; Nothing says what a bare copy moves: its bytes stay unknown (synthesis
; reports them, or assumes floats under -adjoint-assume-unknown-is-float).
define void @bare(ptr %dst, ptr %src) {
  %v = load i64, ptr %src
  store i64 %v, ptr %dst
  ret void
}

; CHECK-LABEL: types of 'bare':
; CHECK-NEXT:    arg %dst: {[]:Pointer}
; CHECK-NEXT:    arg %src: {[]:Pointer}
; CHECK-NEXT:    %v = load: {}
