; A function with two returns is seeded at whichever return the forward pass
; reached: f = x > y ? exp(x) : log(y) * x has gradient (exp(x), 0) on one
; path and (log(y), x/y) on the other.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @exp(double)
declare double @log(double)

define double @f(double %x, double %y) {
entry:
  %c = fcmp ogt double %x, %y
  br i1 %c, label %a, label %b
a:
  %e = call double @exp(double %x)
  ret double %e
b:
  %l = call double @log(double %y)
  %m = fmul double %l, %x
  ret double %m
}

define { double, double } @caller(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.adjoint.grad(double %x, double %y)
; CHECK:       a:
; CHECK-NEXT:    %e = call double @exp(double %x)
; CHECK:       b:
; CHECK-NEXT:    %l = call double @log(double %y)
; The gradients meet where the reverse pass returns.
; CHECK:       reverse.entry:
; CHECK-DAG:     %y.adjoint{{.*}} = phi double [ [[DY:%[0-9]+]], %[[FROM_B:[a-z.]+]] ], [ 0.000000e+00, %{{[a-z.]+}} ]
; CHECK-DAG:     %x.adjoint{{.*}} = phi double [ %l{{[.a-z0-9]*}}, %[[FROM_B]] ], [ %e{{[.a-z0-9]*}}, %{{[a-z.]+}} ]
; CHECK:       [[FROM_B]]:
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %x, %y
; CHECK-NEXT:    [[DY]] = fadd double [[Q]], 0.000000e+00
