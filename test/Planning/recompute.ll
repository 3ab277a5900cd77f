; Values that are cheap to compute from a cached one are recomputed: the
; reverse needs p, a = p*p and b = a*p in every iteration, and caching p
; alone (8 bytes, the minimum cut) lets it recompute a and b.
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = phi double [ 1.0, %entry ], [ %p.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %a = fmul double %p, %p
  %b = fmul double %a, %p
  %s = call double @sin(double %b)
  %acc.next = fadd double %acc, %s
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %xp
  %half = fmul double %p, 5.000000e-01
  %p.next = fadd double %half, %xi
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; CHECK:      loop %loop (depth 1): cache 8 bytes per iteration
; CHECK-DAG:    double %p = phi: cache 8 bytes
; CHECK-DAG:    double %a = fmul: recompute
; CHECK-DAG:    double %b = fmul: recompute
; CHECK-NOT:  cache {{[1-9]}}
