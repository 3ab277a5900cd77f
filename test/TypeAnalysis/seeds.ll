target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Facts that IR types do not carry: TBAA access tags (what clang knew about
; an access, also on integer-typed copies) and signatures of library
; functions (allocation sizes are integers, frexp writes an int, sincos and
; modf write floats of their argument's kind, realloc keeps the contents).
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

define void @tbaa(ptr %d, ptr %s) {
  %v = load i64, ptr %s, !tbaa !1
  store i64 %v, ptr %d, !tbaa !1
  %n.p = getelementptr inbounds i8, ptr %s, i64 8
  %n = load i32, ptr %n.p, !tbaa !5
  %q.p = getelementptr inbounds i8, ptr %s, i64 16
  %q = load i64, ptr %q.p, !tbaa !7
  %l.p = getelementptr inbounds i8, ptr %s, i64 32
  %l = load i128, ptr %l.p, !tbaa !9
  ret void
}

; "double" on an i64 copy, "int", a pointer type, and "long double" (x86_fp80
; on this target, 16 bytes with its padding).
; CHECK-LABEL: types of 'tbaa':
; CHECK-NEXT:    arg %d: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    arg %s: {[]:Pointer, [0]:Double, [8..11]:Integer, [16]:Pointer, [32]:X86_FP80}
; CHECK-NEXT:    %v = load: {[0]:Double}
; CHECK-NEXT:    %n.p = getelementptr: {[]:Pointer, [0..3]:Integer, [8]:Pointer, [24]:X86_FP80}
; CHECK-NEXT:    %n = load: {[0..3]:Integer}
; CHECK-NEXT:    %q.p = getelementptr: {[]:Pointer, [0]:Pointer, [16]:X86_FP80}
; CHECK-NEXT:    %q = load: {[0]:Pointer}
; CHECK-NEXT:    %l.p = getelementptr: {[]:Pointer, [0]:X86_FP80}
; CHECK-NEXT:    %l = load: {[0]:X86_FP80}

define double @library(double %x, i64 %n) {
  %buf = call ptr @malloc(i64 %n)
  %e = alloca i32
  %m = call double @frexp(double %x, ptr %e)
  %s = alloca float
  %c = alloca float
  %xf = fptrunc double %x to float
  call void @sincosf(float %xf, ptr %s, ptr %c)
  %big = call ptr @realloc(ptr %buf, i64 64)
  store double %m, ptr %big
  call void @free(ptr %big)
  ret double %m
}

; CHECK-LABEL: types of 'library':
; CHECK-NEXT:    arg %x: {[]:Double}
; CHECK-NEXT:    arg %n: {[0..7]:Integer}
; CHECK-NEXT:    %buf = call: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %e = alloca: {[]:Pointer, [0..3]:Integer}
; CHECK-NEXT:    %m = call: {[]:Double}
; CHECK-NEXT:    %s = alloca: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %c = alloca: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %xf = fptrunc: {[]:Float}
; CHECK-NEXT:    %big = call: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    return: {[]:Double}

declare ptr @malloc(i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare double @frexp(double, ptr)
declare void @sincosf(float, ptr, ptr)

!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !3, i64 0}
!7 = !{!8, !8, i64 0}
!8 = !{!"p1 double", !10, i64 0}
!9 = !{!11, !11, i64 0}
!10 = !{!"any pointer", !3, i64 0}
!11 = !{!"long double", !3, i64 0}
