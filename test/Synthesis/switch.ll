; A switch with four destinations that meet again in a phi: each way back in
; the reverse pass differentiates the case that ran (sin -> cos, cos -> -sin,
; exp -> exp, x*x -> 2x).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)
declare double @exp(double)

define double @f(double %x, i32 %k) {
entry:
  switch i32 %k, label %d [ i32 0, label %c0
                            i32 1, label %c1
                            i32 7, label %c2 ]
c0:
  %a = call double @sin(double %x)
  br label %merge
c1:
  %b = call double @cos(double %x)
  br label %merge
c2:
  %e = call double @exp(double %x)
  br label %merge
d:
  %m = fmul double %x, %x
  br label %merge
merge:
  %p = phi double [ %a, %c0 ], [ %b, %c1 ], [ %e, %c2 ], [ %m, %d ]
  ret double %p
}

define double @caller(double %x, i32 %k) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr @enzyme_const, i32 %k)
  ret double %g
}

; The forward pass keeps the switch.
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, i32 %k)
; CHECK:         switch i32 %k, label
; CHECK-NEXT:      i32 0, label %c0
; CHECK-NEXT:      i32 1, label %c1
; CHECK-NEXT:      i32 7, label %c2
; The adjoint of x is returned from whichever case ran.
; CHECK:       reverse.entry:
; CHECK-NEXT:    %x.adjoint{{.*}} = phi double
; CHECK-DAG:       [ [[D0:%[0-9]+]], %reverse.merge.from.c0 ]
; CHECK-DAG:       [ [[D1:%[0-9]+]], %reverse.merge.from.c1 ]
; CHECK-DAG:       [ [[DD:%[0-9]+]], %reverse.merge.from.d ]
; CHECK-DAG:       [ %e{{[.a-z0-9]*}}, %reverse.merge ]
; The merge block records the case and its reverse switches on the record.
; CHECK:       reverse.merge:
; CHECK:         %merge.came_from = phi i8
; CHECK-NEXT:    switch i8 %merge.came_from, label %reverse.merge.from.c0 [
; CHECK-NEXT:      i8 {{[0-9]+}}, label %reverse.merge.from.c1
; CHECK-NEXT:      i8 {{[0-9]+}}, label %reverse.entry
; CHECK-NEXT:      i8 {{[0-9]+}}, label %reverse.merge.from.d
; CHECK-NEXT:    ]
; CHECK:       reverse.merge.from.c0:
; CHECK-NEXT:    [[D0]] = call double @llvm.cos.f64(double %x)
; CHECK:       reverse.merge.from.c1:
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[D1]] = fneg double [[SIN]]
; CHECK:       reverse.merge.from.d:
; CHECK-NEXT:    [[DD]] = fadd double %x, %x
