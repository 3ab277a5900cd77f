; A call that stays a call (recursion) is differentiated through a pair of
; functions per (callee, call pattern): the augmented forward takes the
; arguments, each enzyme_dup one followed by its shadow, and returns
; { tape, result }; the reverse takes the same arguments, the adjoint of
; the result and the tape, and returns the gradients of the active
; by-value arguments. The recursive call inside the pair uses the pair
; itself: one pair, however deep the recursion.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

; scale(s, p, n) = n > 0 ? s * scale(s, p, n - 1) + p[0] : p[0]
define double @scale(double %s, ptr %p, i32 %n) {
entry:
  %x = load double, ptr %p
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %rec, label %base
rec:
  %n1 = sub i32 %n, 1
  %r = call double @scale(double %s, ptr %p, i32 %n1)
  %m = fmul double %s, %r
  %a = fadd double %m, %x
  ret double %a
base:
  ret double %x
}

define double @caller(double %s, ptr %p, ptr %dp, i32 %n) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @scale, double %s, ptr %p, ptr %dp, i32 %k, i32 %n)
  ret double %g
}

; The reverse frees the tape once it has read it, and passes each tape of
; the recursive calls on to their reverse.
; The gradient calls the pair for pattern (out, dup, const, active return).
; CHECK-LABEL: define internal double @scale.adjoint.grad(double %s, ptr %p, ptr %p.shadow, i32 %n)
; CHECK: call { ptr, double } @scale.adjoint.odcr.aug(double %s, ptr {{.*}}%p, ptr %p.shadow, i32 %n1)
; CHECK: call double @scale.adjoint.odcr.rev(double %s, ptr {{.*}}%p, ptr %p.shadow, i32 %n1, double {{.*}}, ptr

; CHECK-LABEL: define internal { ptr, double } @scale.adjoint.odcr.aug(double %s, ptr %p, ptr %p.shadow, i32 %n)
; CHECK: call { ptr, double } @scale.adjoint.odcr.aug(
; CHECK: ret { ptr, double }

; CHECK: define internal double @scale.adjoint.odcr.rev(double %s, ptr %p, ptr %p.shadow, i32 %n, double %return.adjoint, ptr %[[TAPE:tape[0-9]*]])
; CHECK: call void @free(ptr {{.*}}%[[TAPE]])
; CHECK: call double @scale.adjoint.odcr.rev(

; No other derivative functions.
; CHECK-NOT: define internal {{.*}}adjoint
