; A block with several predecessors records in a `came_from` phi which edge
; the forward pass took, and its reverse switches on that record to go back
; along the same edge. Here merge has three predecessors a, b, c, and the
; phi's adjoint reaches sin (via a), cos (via b) or exp (via c, then a).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)
declare double @exp(double)

define double @f(double %x, i1 %c1, i1 %c2) {
entry:
  br i1 %c1, label %a, label %b
a:
  %sa = call double @sin(double %x)
  br i1 %c2, label %merge, label %c
b:
  %cb = call double @cos(double %x)
  br label %merge
c:
  %ec = call double @exp(double %x)
  br label %merge
merge:
  %p = phi double [ %sa, %a ], [ %cb, %b ], [ %ec, %c ]
  ret double %p
}

define double @caller(double %x, i1 %c1, i1 %c2) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr @enzyme_const, i1 %c1, ptr @enzyme_const, i1 %c2)
  ret double %g
}

; The record: one distinct number per incoming edge.
; CHECK-LABEL: define internal double @f.adjoint.grad(
; Along a: d sin(x) = cos(x), times the adjoint that sin's result received.
; CHECK:       reverse.a:
; CHECK:         [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    fmul double %sa.adjoint{{.*}}, [[COS]]
; CHECK-LABEL: reverse.merge:
; CHECK-DAG:     %merge.came_from = phi i8
; CHECK-DAG:     [ [[A:[0-9]+]], %a ]
; CHECK-DAG:     [ [[B:[0-9]+]], %b ]
; CHECK-DAG:     [ [[C:[0-9]+]], %c ]
; The reverse switches on it; the default is the edge from a.
; CHECK:         switch i8 %merge.came_from, label %reverse.a [
; CHECK-DAG:       i8 [[B]], label %reverse.merge.from.b
; CHECK-DAG:       i8 [[C]], label %reverse.merge.from.c
; CHECK:         ]

; Along b: d cos(x) = -sin(x).
; CHECK:       reverse.merge.from.b:
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    fneg double [[SIN]]
; Along c, the adjoint of x is exp(x) (the value the forward pass computed),
; then the reverse continues with c's predecessor a.
; CHECK:       reverse.merge.from.c:
; CHECK-NEXT:    br label %reverse.a
