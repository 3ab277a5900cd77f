; A call of a C library function that takes no pointer and has no
; derivative rule (lgamma, declared without attributes as C headers leave
; it) may write only the library's state (errno, signgam): loads of the
; function's arrays are still reloaded in the reverse, not cached. A load
; of a global may read that state, so it stays cached. Without this, GMM's
; lgamma of a constant cached every load of the objective (970 MB of cache).
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32
@enzyme_dup = external global i32
@scale = global double 2.0
declare double @__enzyme_autodiff(ptr, ...)
declare double @lgamma(double)

define double @f(ptr %x, i64 %n, double %c) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s = load double, ptr @scale
  %sq = fmul double %v, %v
  %t = fmul double %sq, %s
  %acc.next = fadd double %acc, %t
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ; After the loads: they must be repeated after it too.
  %lg = call double @lgamma(double %c)
  %r = fadd double %acc.next, %lg
  ret double %r
}

define void @caller(ptr %x, ptr %dx, i64 %n, double %c) {
  %d = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %k, i64 %n, i32 %k, double %c)
  ret void
}

; CHECK-LABEL: cache plan for the gradient of 'f':
; CHECK:       loop %loop (depth 1): cache 8 bytes per iteration
; CHECK-DAG:     double %v = load: recompute
; CHECK-DAG:     double %s = load: cache 8 bytes
