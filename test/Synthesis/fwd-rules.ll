; Tangents come from the rule table: tangent(r) = sum of partial_i *
; tangent(x_i) over the active operands (fmul: y dx + x dy; fdiv: dx / y +
; (-r / y) dy; sin: cos(x) dx), the table's vector partial of a reduction
; is dotted with the vector's tangent (its lanes summed), select and lane
; moves apply to tangents, and a phi gets a tangent phi (zero from the
; constant entering the loop).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @sin(double)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @arith(double %x, double %y) {
  %m = fmul double %x, %y
  %d = fdiv double %m, %y
  %s = call double @sin(double %d)
  %c = fcmp olt double %x, %y
  %sel = select i1 %c, double %s, double %x
  %v0 = insertelement <2 x double> poison, double %sel, i32 0
  %v1 = insertelement <2 x double> %v0, double %y, i32 1
  %r = call double @llvm.vector.reduce.fadd.v2f64(double %x, <2 x double> %v1)
  ret double %r
}

define double @loop(double %x, i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %header ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %header ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %header
exit:
  ret double %acc.next
}

define double @call_arith(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @arith, double %x, double 1.0, double %y, double 0.0)
  ret double %g
}
define double @call_loop(double %x, i32 %n) {
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @loop, double %x, double 1.0, i32 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @arith.adjoint.fwd(double %x, double %x.tangent, double %y, double %y.tangent)
; CHECK:         %m = fmul double %x, %y
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, %x.tangent
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, %y.tangent
; CHECK-NEXT:    %m.tangent = fadd double [[A]], [[B]]
; CHECK-NEXT:    %d = fdiv double %m, %y
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %m.tangent, %y
; CHECK-NEXT:    [[NEG:%.*]] = fneg double %d
; CHECK-NEXT:    [[P:%.*]] = fdiv double [[NEG]], %y
; CHECK-NEXT:    [[T:%.*]] = fmul double [[P]], %y.tangent
; CHECK-NEXT:    %d.tangent = fadd double [[Q]], [[T]]
; CHECK-NEXT:    %s = call double @sin(double %d)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %d)
; CHECK-NEXT:    %s.tangent = fmul double [[COS]], %d.tangent
; CHECK:         %sel.tangent = select i1 %c, double %s.tangent, double %x.tangent
; CHECK:         %v1.tangent = insertelement <2 x double> %v0.tangent, double %y.tangent, i64 1
; CHECK-NEXT:    [[SUM:%.*]] = call double @llvm.vector.reduce.fadd.v2f64(double -0.000000e+00, <2 x double> %v1.tangent)
; CHECK-NEXT:    %r.tangent = fadd double [[SUM]], %x.tangent
; CHECK-NEXT:    ret double %r.tangent

; CHECK-LABEL: define internal double @loop.adjoint.fwd(double %x, double %x.tangent, i32 %n)
; CHECK:       header:
; CHECK:         %acc.tangent = phi double [ 0.000000e+00, %entry ], [ %acc.next.tangent, %header ]
; CHECK:         %acc.next = fmul double %acc, %x
; CHECK-NEXT:    [[A:%.*]] = fmul double %acc.tangent, %x
; CHECK-NEXT:    [[B:%.*]] = fmul double %acc, %x.tangent
; CHECK-NEXT:    %acc.next.tangent = fadd double [[A]], [[B]]
; CHECK:       exit:
; CHECK-NEXT:    ret double %acc.next.tangent
