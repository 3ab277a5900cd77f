; A recurrence inside a 2-deep nest with a data-dependent inner exit: the
; phi must be cached. One array serves every run of the inner loop, indexed
; by its flat iteration count; its size is not known at entry, so it grows
; by doubling (a larger block from the cache pool, the records copied over,
; the old block given back; the capacity is the new block's whole size). The outer loop caches the iteration at which each
; run of the inner loop exited, in one array sized from its trip count.
; Both are freed at the end.
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s --check-prefix=IR

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @nest(double %a, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi double [ %a, %entry ], [ %t.last, %outer.latch ]
  br label %inner
inner:
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %t.next = fmul double %t, %t
  %small = fcmp olt double %t.next, 1.0
  br i1 %small, label %inner, label %outer.latch
outer.latch:
  %t.last = phi double [ %t.next, %inner ]
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret double %t.last
}

define double @caller(double %a, i64 %n) {
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @nest, double %a, i32 %c, i64 %n)
  ret double %g
}

; PLAN:      loop %inner (depth 2): cache 8 bytes per iteration
; PLAN-NEXT:   double %t = phi: cache 8 bytes
; PLAN-NEXT: loop %outer (depth 1): cache 8 bytes per iteration
; PLAN-NEXT:   i64 %exit.iteration{{.*}} = phi: cache 8 bytes

; IR-LABEL: define internal double @nest.adjoint.grad(
; IR:         call ptr @adjoint.cache.take(
; IR-NOT:     @adjoint.cache.take(
; IR:       inner:
; IR:         [[NEW:%.*]] = call ptr @adjoint.cache.take(
; IR-NEXT:    [[BYTES:%.*]] = shl i64
; IR-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 1 [[NEW]], ptr align 1 [[OLD:%.*]], i64 [[BYTES]]
; IR-NEXT:    call void @adjoint.cache.give(ptr [[OLD]])
; IR-NEXT:    call i64 @adjoint.cache.size(ptr [[NEW]])
; IR-NOT:     @adjoint.cache.take(
; IR-COUNT-2: call void @adjoint.cache.give(
; IR-NOT:     @adjoint.cache.give(
; IR:         ret double
