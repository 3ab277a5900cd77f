; Arrays of structs indexed by variables: the layout of one element repeats
; with the element size as its period ([16n+8] is every element's offset 8),
; whether the index is a GEP index, a byte offset, a pointer induction
; variable, or two indices of a matrix.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

%struct.Item = type { i32, double }

define double @sum(ptr %items, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %id.p = getelementptr inbounds %struct.Item, ptr %items, i64 %i, i32 0
  %id = load i32, ptr %id.p
  %w.p = getelementptr inbounds %struct.Item, ptr %items, i64 %i, i32 1
  %w = load double, ptr %w.p
  %idd = sitofp i32 %id to double
  %t = fmul double %w, %idd
  %acc.next = fadd double %acc, %t
  %i.next = add nuw i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %loop
exit:
  ret double %acc.next
}

; CHECK-LABEL: types of 'sum':
; CHECK-NEXT:    arg %items: {[]:Pointer, [16n+0..3]:Integer, [16n+8]:Double}
; CHECK-NEXT:    arg %n: {[0..7]:Integer}
; CHECK-NEXT:    %i = phi: {[0..7]:Integer}
; CHECK-NEXT:    %acc = phi: {[]:Double}
; CHECK-NEXT:    %id.p = getelementptr: {[]:Pointer, [16n+0..3]:Integer, [16n+8]:Double}
; CHECK-NEXT:    %id = load: {[0..3]:Integer}
; CHECK-NEXT:    %w.p = getelementptr: {[]:Pointer, [16n]:Double, [16n+8..11]:Integer}
; CHECK-NEXT:    %w = load: {[]:Double}
; CHECK-NEXT:    %idd = sitofp: {[]:Double}
; CHECK-NEXT:    %t = fmul: {[]:Double}
; CHECK-NEXT:    %acc.next = fadd: {[]:Double}
; CHECK-NEXT:    %i.next = add: {[0..7]:Integer}
; CHECK-NEXT:    %c = icmp: {[0]:Integer}
; CHECK-NEXT:    return: {[]:Double}

; The same access as LLVM 19 often writes it: a byte offset i * 16 + 8.
define double @byte_offset(ptr %items, i64 %i) {
  %off = mul nsw i64 %i, 16
  %w.off = or disjoint i64 %off, 8
  %w.p = getelementptr inbounds i8, ptr %items, i64 %w.off
  %w = load double, ptr %w.p
  ret double %w
}

; CHECK-LABEL: types of 'byte_offset':
; CHECK-NEXT:    arg %items: {[]:Pointer, [16n+8]:Double}
; CHECK-NEXT:    arg %i: {[0..7]:Integer}
; CHECK-NEXT:    %off = mul: {[0..7]:Integer}
; CHECK-NEXT:    %w.off = or: {[0..7]:Integer}
; CHECK-NEXT:    %w.p = getelementptr: {[]:Pointer, [16n]:Double}
; CHECK-NEXT:    %w = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; After loop strength reduction: a pointer stepping by the element size.
define double @walk(ptr %begin, ptr %end) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %begin, %entry ], [ %p.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %w.p = getelementptr inbounds i8, ptr %p, i64 8
  %w = load double, ptr %w.p
  %acc.next = fadd double %acc, %w
  %p.next = getelementptr inbounds i8, ptr %p, i64 16
  %c = icmp eq ptr %p.next, %end
  br i1 %c, label %exit, label %loop
exit:
  ret double %acc.next
}

; CHECK-LABEL: types of 'walk':
; CHECK-NEXT:    arg %begin: {[]:Pointer, [16n+8]:Double}
; CHECK-NEXT:    arg %end: {[]:Pointer}
; CHECK-NEXT:    %p = phi: {[]:Pointer, [16n+8]:Double}
; CHECK-NEXT:    %acc = phi: {[]:Double}
; CHECK-NEXT:    %w.p = getelementptr: {[]:Pointer, [16n]:Double}
; CHECK-NEXT:    %w = load: {[]:Double}
; CHECK-NEXT:    %acc.next = fadd: {[]:Double}
; CHECK-NEXT:    %p.next = getelementptr: {[]:Pointer, [16n+8]:Double}
; CHECK-NEXT:    %c = icmp: {[0]:Integer}
; CHECK-NEXT:    return: {[]:Double}

; double m[][4] at m[i][j]: rows of 32 bytes, columns of 8: every 8 bytes.
define double @matrix(ptr %m, i64 %i, i64 %j) {
  %e = getelementptr inbounds [4 x double], ptr %m, i64 %i, i64 %j
  %x = load double, ptr %e
  ret double %x
}

; CHECK-LABEL: types of 'matrix':
; CHECK-NEXT:    arg %m: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %i: {[0..7]:Integer}
; CHECK-NEXT:    arg %j: {[0..7]:Integer}
; CHECK-NEXT:    %e = getelementptr: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; An array of ints: every byte an integer.
define i32 @ints(ptr %a, i64 %k) {
  %e = getelementptr inbounds i32, ptr %a, i64 %k
  %v = load i32, ptr %e
  %v2 = mul i32 %v, %v
  ret i32 %v2
}

; CHECK-LABEL: types of 'ints':
; CHECK-NEXT:    arg %a: {[]:Pointer, [-1]:Integer}
; CHECK-NEXT:    arg %k: {[0..7]:Integer}
; CHECK-NEXT:    %e = getelementptr: {[]:Pointer, [-1]:Integer}
; CHECK-NEXT:    %v = load: {[0..3]:Integer}
; CHECK-NEXT:    %v2 = mul: {[0..3]:Integer}
; CHECK-NEXT:    return: {[0..3]:Integer}
