; The reverse of a reduction over memory that the function never writes
; reloads that memory and recomputes the addresses from its own iteration
; count: nothing is cached, and the gradient allocates nothing.
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s --check-prefix=IR

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @sumsq(ptr %x, i64 %n) {
entry:
  %nonempty = icmp sgt i64 %n, 0
  br i1 %nonempty, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %acc.next = fadd double %acc, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  ret double %r
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; PLAN:      cache plan for the gradient of 'sumsq':
; PLAN-NEXT:   loop %loop (depth 1): cache 0 bytes per iteration
; PLAN-DAG:      i64 %adjoint.iv = phi: reverse iteration count (operand)
; PLAN-DAG:      ptr %p = getelementptr: recompute (operand)
; PLAN-DAG:      double %v = load: recompute
; PLAN-DAG:      ptr %p.shadow = getelementptr: recompute
; PLAN-NOT:    cache {{[1-9]}}

; IR-LABEL: define internal void @sumsq.adjoint.grad(
; IR-NOT:     malloc
; IR-NOT:     realloc
; The reverse loop reloads x[i]:
; IR:         reverse.loop:
; IR:         load double, ptr %p
; IR:         icmp eq i64 %{{.*}}, 0
