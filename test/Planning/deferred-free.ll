; A heap block the function fills, reads in a later loop and frees before
; it returns stays allocated until the gradient returns: the reverse loads
; the table again instead of caching every value read from it (GMM's
; precomputed diagonals were cached once per point and component). Writers
; that run only before a load (the loop that fills the table) do not stop
; the reverse from repeating it. A block freed on some paths only keeps its
; free where it is and its loads cached; so does a block written after it
; is read, though its free moves too.
; RUN: %opt-adjoint -passes='print<adjoint-plan>' -disable-output %s | FileCheck %s --check-prefix=PLAN
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s --check-prefix=IR

target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
; As clang declares them (InferFunctionAttrs).
declare noalias ptr @malloc(i64) #0
declare void @free(ptr allocptr nocapture) #1

define double @deferred(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %table = call noalias ptr @malloc(i64 %bytes)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %slot = getelementptr inbounds double, ptr %table, i64 %i
  %fi = uitofp i64 %i to double
  store double %fi, ptr %slot
  %i.next = add i64 %i, 1
  %filled = icmp uge i64 %i.next, %n
  br i1 %filled, label %use, label %fill
use:
  %j = phi i64 [ 0, %fill ], [ %j.next, %use ]
  %acc = phi double [ 0.0, %fill ], [ %acc.next, %use ]
  %wp = getelementptr inbounds double, ptr %table, i64 %j
  %w = load double, ptr %wp
  %xp = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %xp
  %wv = fmul double %w, %v
  %t = fmul double %wv, %v
  %acc.next = fadd double %acc, %t
  %j.next = add i64 %j, 1
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %use
exit:
  call void @free(ptr %table)
  ret double %acc.next
}

define double @freed_on_one_path(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %table = call noalias ptr @malloc(i64 %bytes)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %slot = getelementptr inbounds double, ptr %table, i64 %i
  %fi = uitofp i64 %i to double
  store double %fi, ptr %slot
  %i.next = add i64 %i, 1
  %filled = icmp uge i64 %i.next, %n
  br i1 %filled, label %use, label %fill
use:
  %j = phi i64 [ 0, %fill ], [ %j.next, %use ]
  %acc = phi double [ 0.0, %fill ], [ %acc.next, %use ]
  %wp = getelementptr inbounds double, ptr %table, i64 %j
  %w = load double, ptr %wp
  %xp = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %xp
  %wv = fmul double %w, %v
  %t = fmul double %wv, %v
  %acc.next = fadd double %acc, %t
  %j.next = add i64 %j, 1
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %use
exit:
  %big = fcmp ogt double %acc.next, 1.0
  br i1 %big, label %release, label %finish
release:
  call void @free(ptr %table)
  br label %finish
finish:
  ret double %acc.next
}

define double @written_later(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %table = call noalias ptr @malloc(i64 %bytes)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %slot = getelementptr inbounds double, ptr %table, i64 %i
  %fi = uitofp i64 %i to double
  store double %fi, ptr %slot
  %i.next = add i64 %i, 1
  %filled = icmp uge i64 %i.next, %n
  br i1 %filled, label %use, label %fill
use:
  %j = phi i64 [ 0, %fill ], [ %j.next, %use ]
  %acc = phi double [ 0.0, %fill ], [ %acc.next, %use ]
  %wp = getelementptr inbounds double, ptr %table, i64 %j
  %w = load double, ptr %wp
  %xp = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %xp
  %wv = fmul double %w, %v
  %t = fmul double %wv, %v
  %acc.next = fadd double %acc, %t
  %j.next = add i64 %j, 1
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %use
exit:
  br label %clear
clear:
  %k = phi i64 [ 0, %exit ], [ %k.next, %clear ]
  %cp = getelementptr inbounds double, ptr %table, i64 %k
  store double 0.0, ptr %cp
  %k.next = add i64 %k, 1
  %cleared = icmp uge i64 %k.next, %n
  br i1 %cleared, label %end, label %clear
end:
  call void @free(ptr %table)
  ret double %acc.next
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  call double (ptr, ...) @__enzyme_autodiff(ptr @deferred, i32 %d, ptr %x, ptr %dx, i32 %k, i64 %n)
  call double (ptr, ...) @__enzyme_autodiff(ptr @freed_on_one_path, i32 %d, ptr %x, ptr %dx, i32 %k, i64 %n)
  call double (ptr, ...) @__enzyme_autodiff(ptr @written_later, i32 %d, ptr %x, ptr %dx, i32 %k, i64 %n)
  ret void
}

; PLAN-LABEL: cache plan for the gradient of 'deferred':
; PLAN:       loop %use (depth 1): cache 0 bytes per iteration
; PLAN-DAG:     double %w = load: recompute
; PLAN-DAG:     double %v = load: recompute
; PLAN-LABEL: cache plan for the gradient of 'freed_on_one_path':
; PLAN:       loop %use (depth 1): cache 8 bytes per iteration
; PLAN-DAG:     double %w = load: cache 8 bytes
; PLAN-DAG:     double %v = load: recompute
; PLAN-LABEL: cache plan for the gradient of 'written_later':
; PLAN:       loop %use (depth 1): cache 8 bytes per iteration
; PLAN-DAG:     double %w = load: cache 8 bytes
; PLAN-DAG:     double %v = load: recompute

; The forward pass no longer frees the table; the gradient's return does.
; IR-LABEL: define internal void @deferred.adjoint.grad(
; IR:         %table = call noalias ptr @malloc(
; IR-NOT:     call void @free(
; IR:       reverse.entry:
; IR-NEXT:    call void @free(ptr %table)
; IR-NEXT:    ret void
; IR-LABEL: define internal void @freed_on_one_path.adjoint.grad(
; IR:       release:
; IR-NEXT:    call void @free(ptr %table)
; IR-LABEL: define internal void @written_later.adjoint.grad(
; IR:         call void @free(ptr %table)
; IR-NEXT:    call void @adjoint.cache.give(
; IR-NEXT:    ret void

attributes #0 = { nounwind allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #1 = { nounwind allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" }
