; memcpy and memmove copy bytes: afterwards both sides hold the same types
; over the copied range, so each side learns what the other's uses say.
; Beyond the range nothing is shared. A copy of unknown length copies
; arrays. !tbaa.struct and library memcpy count too; memset says nothing
; about what it overwrites.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

; struct { double x; long k; } copied with memcpy(dst, src, 16); a float
; after the copied range stays with the source.
define double @struct_copy(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %x = load double, ptr %src
  %k.p = getelementptr inbounds i8, ptr %dst, i64 8
  %k = load i64, ptr %k.p
  %k2 = mul i64 %k, 2
  %f.p = getelementptr inbounds i8, ptr %src, i64 16
  %f = load float, ptr %f.p
  ret double %x
}

; CHECK-LABEL: types of 'struct_copy':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [0]:Double, [8..15]:Integer}
; CHECK-NEXT:    arg %src: {[]:Pointer, [0]:Double, [8..15]:Integer, [16]:Float}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    %k.p = getelementptr: {[]:Pointer, [0..7]:Integer}
; CHECK-NEXT:    %k = load: {[0..7]:Integer}
; CHECK-NEXT:    %k2 = mul: {[0..7]:Integer}
; CHECK-NEXT:    %f.p = getelementptr: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %f = load: {[]:Float}
; CHECK-NEXT:    return: {[]:Double}

; memmove(dst, src, n * sizeof(double)), then dst[n] = 1.0.
define void @array_copy(ptr %dst, ptr %src, i64 %n) {
  %bytes = shl i64 %n, 3
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  %e = getelementptr inbounds double, ptr %dst, i64 %n
  store double 1.0, ptr %e
  ret void
}

; CHECK-LABEL: types of 'array_copy':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %src: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %n: {[0..7]:Integer}
; CHECK-NEXT:    %bytes = shl: {[0..7]:Integer}
; CHECK-NEXT:    %e = getelementptr: {[]:Pointer, [8n]:Double}

; Copying 8 bytes into the middle of a buffer.
define double @copy_into_middle(ptr %buf, ptr %x) {
  %mid = getelementptr inbounds i8, ptr %buf, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr %mid, ptr %x, i64 8, i1 false)
  %v = load double, ptr %x
  ret double %v
}

; CHECK-LABEL: types of 'copy_into_middle':
; CHECK-NEXT:    arg %buf: {[]:Pointer, [8]:Double}
; CHECK-NEXT:    arg %x: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %mid = getelementptr: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %v = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; clang describes the fields of a struct copy with !tbaa.struct.
define void @tbaa_struct(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false), !tbaa.struct !0
  ret void
}

; CHECK-LABEL: types of 'tbaa_struct':
; CHECK-NEXT:    arg %d: {[]:Pointer, [0]:Double, [8..11]:Integer}
; CHECK-NEXT:    arg %s: {[]:Pointer, [0]:Double, [8..11]:Integer}

; The C library's memcpy, and the pointer it returns.
define double @libc_memcpy(ptr %d, ptr %s) {
  %r = call ptr @memcpy(ptr %d, ptr %s, i64 8)
  %x = load double, ptr %r
  ret double %x
}

; CHECK-LABEL: types of 'libc_memcpy':
; CHECK-NEXT:    arg %d: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %s: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %r = call: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; memset says nothing about the memory; its length is an integer.
define double @zeroed(ptr %p, i64 %n) {
  %bytes = mul i64 %n, 8
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %bytes, i1 false)
  %x = load double, ptr %p
  ret double %x
}

; CHECK-LABEL: types of 'zeroed':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %n: {[0..7]:Integer}
; CHECK-NEXT:    %bytes = mul: {[0..7]:Integer}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare ptr @memcpy(ptr, ptr, i64)

!0 = !{i64 0, i64 8, !1, i64 8, i64 4, !5}
!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !3, i64 0}
