; A rectangular nest: the inner loop runs m times in each of the n outer
; iterations, both known at the nest's entry. Its cache (sin is not
; recomputed) is one array of n * m records, allocated once before the
; nest and freed at the end. The inner count is computed where the inner
; loop's guard has not been tested yet, so an implausibly large one is not
; used, and the growth check stays (it never fires when the count is used).
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s --check-prefix=IR

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)

define double @nest(double %a, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi double [ %a, %entry ], [ %t.last, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %sn = call double @sin(double %t)
  %t.next = fmul double %sn, %a
  %j.next = add i64 %j, 1
  %jdone = icmp uge i64 %j.next, %m
  br i1 %jdone, label %outer.latch, label %inner
outer.latch:
  %t.last = phi double [ %t.next, %inner ]
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret double %t.last
}

define double @caller(double %a, i64 %n, i64 %m) {
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @nest, double %a, i32 %c, i64 %n, i32 %c, i64 %m)
  ret double %g
}

; The exits of both loops are recomputed from their trip counts.
; PLAN:      loop %inner (depth 2): cache 16 bytes per iteration
; PLAN-DAG:    double %t = phi: cache 8 bytes
; PLAN-DAG:    double %sn = call: cache 8 bytes
; PLAN-NOT:  exit.iteration

; IR-LABEL: define internal double @nest.adjoint.grad(
; IR:       entry:
; IR:         [[TOTAL:%.*]] = mul i64
; IR:         [[OK:%.*]] = icmp ult i64 [[TOTAL]], 67108865
; IR:         [[N:%.*]] = select i1 [[OK]], i64 [[TOTAL]], i64 0
; IR:         [[BYTES:%.*]] = shl i64 [[N]], 4
; IR-NEXT:    call ptr @adjoint.cache.take(i64 [[BYTES]])
; The growth check's branch: a larger block, the old one given back.
; IR:         call ptr @adjoint.cache.take(
; IR-NOT:     @adjoint.cache.take(
; IR:         call void @adjoint.cache.give(
; IR:         call void @adjoint.cache.give(
; IR-NOT:     @adjoint.cache.give(
; IR:         ret double
