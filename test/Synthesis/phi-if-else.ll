; A phi after if/else: the reverse pass goes back along the edge the forward
; pass took and hands the phi's adjoint to the incoming value of that edge
; only. r = (c ? sin(x) : cos(y)) * x, so on the then-edge
; dr/dx = p + x*cos(x), dr/dy = 0; on the else-edge dr/dx = p,
; dr/dy = -x*sin(y).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)

define double @f(double %x, double %y, i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  %a = call double @sin(double %x)
  br label %merge
else:
  %b = call double @cos(double %y)
  br label %merge
merge:
  %p = phi double [ %a, %then ], [ %b, %else ]
  %r = fmul double %p, %x
  ret double %r
}

define { double, double } @caller(double %x, double %y, i1 %c) {
  %k = load i32, ptr @enzyme_const
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y, i32 %k, i1 %c)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y, i1 %c)
; CHECK:       entry:
; CHECK-NEXT:    br i1 %c, label %then, label %else
; CHECK:       reverse.entry:
; CHECK-DAG:     %y.adjoint{{.*}} = phi double [ [[DY_ELSE:%[0-9]+]], %reverse.merge.from.else ], [ 0.000000e+00, %reverse.merge.from.then ]
; CHECK-DAG:     %x.adjoint{{.*}} = phi double [ %p, %reverse.merge.from.else ], [ [[DX_THEN:%[0-9]+]], %reverse.merge.from.then ]
; CHECK:       reverse.merge:
; CHECK-NEXT:    %p = phi double
; CHECK-NEXT:    br i1 %c, label %reverse.merge.from.then, label %reverse.merge.from.else
; CHECK:       reverse.merge.from.then:
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[T:%.*]] = fmul double [[COS]], %x
; CHECK-NEXT:    [[DX_THEN]] = fadd double %p, [[T]]
; CHECK-NEXT:    br label %reverse.entry
; CHECK:       reverse.merge.from.else:
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %y)
; CHECK-NEXT:    [[E:%.*]] = fmul double [[SIN]], %x
; CHECK-NEXT:    [[DY_ELSE]] = fsub double 0.000000e+00, [[E]]
; CHECK-NEXT:    br label %reverse.entry
