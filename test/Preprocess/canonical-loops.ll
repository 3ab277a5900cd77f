; The loop form reverse mode relies on: a preheader, a canonical i64
; induction variable first in the header, counting iterations from 0, and
; every other affine induction variable (an integer counting by 3 from 5, a
; pointer striding by 16 bytes) computed from it, so that the reverse can
; recompute them from its own count. A value used after the loop leaves it
; through an LCSSA phi.
; RUN: %opt-adjoint -passes=adjoint-canonicalize-loops -S %s | FileCheck %s

define double @f(ptr %x, i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 5, %entry ], [ %k.next, %loop ]
  %p = phi ptr [ %x, %entry ], [ %p.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %v = load double, ptr %p
  %kf = sitofp i32 %k to double
  %t = fmul double %v, %kf
  %acc.next = fadd double %acc, %t
  %k.next = add i32 %k, 3
  %p.next = getelementptr inbounds i8, ptr %p, i64 16
  %done = icmp sgt i32 %k.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

; CHECK-LABEL: define double @f(
; CHECK:       entry:
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %adjoint.iv = phi i64 [ 0, %entry ], [ %adjoint.iv.next, %loop ]
; CHECK-NOT:     phi i32
; CHECK-NOT:     phi ptr
; CHECK-DAG:     [[K:%.*]] = trunc i64 %adjoint.iv to i32
; CHECK-DAG:     [[K3:%.*]] = mul i32 [[K]], 3
; CHECK-DAG:     %k = add i32 5, [[K3]]
; CHECK-DAG:     [[OFF:%.*]] = mul i64 %adjoint.iv, 16
; CHECK-DAG:     %p = getelementptr i8, ptr %x, i64 [[OFF]]
; CHECK:         %adjoint.iv.next = add nuw nsw i64 %adjoint.iv, 1
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK-NEXT:    %acc.next.lcssa = phi double [ %acc.next, %loop ]
; CHECK-NEXT:    ret double %acc.next.lcssa
