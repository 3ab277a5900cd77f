; flang tags the accesses to the fields of its array descriptors with the
; TBAA type "descriptor member": the fields are the base address and
; integers, so an i64 copied from one descriptor to another is an integer,
; not a double copied through an integer.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

define void @copy_stride(ptr %to, ptr %from) {
  %sm.from = getelementptr i8, ptr %from, i64 40
  %sm = load i64, ptr %sm.from, !tbaa !1
  %sm.to = getelementptr i8, ptr %to, i64 40
  store i64 %sm, ptr %sm.to, !tbaa !1
  ret void
}

; CHECK-LABEL: types of 'copy_stride':
; CHECK-NEXT:    arg %to: {[]:Pointer, [40..47]:Integer}
; CHECK-NEXT:    arg %from: {[]:Pointer, [40..47]:Integer}
; CHECK:         %sm = load: {[0..7]:Integer}

!0 = !{!"Flang function root copy_stride"}
!1 = !{!2, !2, i64 0}
!2 = !{!"descriptor member", !3, i64 0}
!3 = !{!"any access", !0, i64 0}
