; x[i] = x[i] * x[i] overwrites what it reads: the reverse cannot reload
; the old x[i], so it is cached, 8 bytes per iteration, in one array
; allocated at the loop's entry from the trip count and freed at the end,
; both through the per-thread pool of cache blocks (CachePool.h), whose
; functions the pass defines once every gradient is generated.
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s --check-prefix=IR

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @square_all(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  store double %sq, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %first = load double, ptr %x
  ret double %first
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @square_all, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; PLAN:      loop %loop (depth 1): cache 8 bytes per iteration
; PLAN-DAG:    double %v = load: cache 8 bytes
; PLAN-DAG:    ptr %p.shadow = getelementptr: recompute

; IR-LABEL: define internal void @square_all.adjoint.grad(
; One array, sized from the trip count before the loop:
; IR:         [[BUF:%.*]] = call ptr @adjoint.cache.take(i64
; IR-NOT:     @adjoint.cache.take(
; IR-NOT:     @realloc(
; IR:       loop:
; IR:         store double %v, ptr
; IR:         call void @adjoint.cache.give(ptr
; IR-NOT:     @adjoint.cache.give(
; IR:         ret void

; The pool: take reuses the smallest kept block that is large enough,
; give keeps a block (evicting a smaller one) and frees the pool at thread
; exit. Blocks under 4 KiB go straight to malloc and free.
; IR-LABEL: define internal {{.*}}ptr @adjoint.cache.take(i64
; IR:         icmp ult i64 %0, 4096
; IR:         call i64 @malloc_usable_size(
; IR:         call ptr @malloc(i64
; IR-LABEL: define internal void @adjoint.cache.give(ptr
; IR:         [[SIZE:%.*]] = call i64 @malloc_usable_size(ptr %0)
; IR:         icmp ult i64 [[SIZE]], 4096
; IR:         call i32 @__cxa_thread_atexit_impl(ptr @adjoint.cache.drain,
; IR:         call void @free(
