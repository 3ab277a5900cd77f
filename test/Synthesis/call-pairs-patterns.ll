; One pair per distinct (callee, pattern), not per call: the three calls
; below use two patterns of @rscale (scale constant, scale active), so two
; pairs are generated. With mutual recursion f -> g -> f, g is inlined into
; f's clone and f's own pair serves the call back to f.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare { double, double } @__enzyme_autodiff2(ptr, ...)

define double @rscale(double %s, double %x, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %rec, label %base
rec:
  %n1 = sub i32 %n, 1
  %r = call double @rscale(double %s, double %x, i32 %n1)
  %m = fmul double %s, %r
  %a = fadd double %m, %x
  ret double %a
base:
  ret double %x
}

define double @uses(double %x, double %y) {
  %a = call double @rscale(double 1.5, double %x, i32 3)
  %b = call double @rscale(double %y, double %x, i32 4)
  %c = call double @rscale(double 2.5, double %y, i32 2)
  %ab = fmul double %a, %b
  %abc = fadd double %ab, %c
  ret double %abc
}

define double @f(double %x, i32 %n) {
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %rec, label %base
rec:
  %r = call double @g(double %x, i32 %n)
  ret double %r
base:
  ret double %x
}

define double @g(double %x, i32 %n) {
  %s = call double @llvm.sin.f64(double %x)
  %n1 = sub i32 %n, 1
  %r = call double @f(double %s, i32 %n1)
  ret double %r
}
declare double @llvm.sin.f64(double)

define void @caller(double %x, double %y, i32 %n, ptr %out) {
  %g1 = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @uses, double %x, double %y)
  store { double, double } %g1, ptr %out
  %g2 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  %o2 = getelementptr double, ptr %out, i32 2
  store double %g2, ptr %o2
  ret void
}

; CHECK-DAG: define internal { ptr, double } @rscale.adjoint.cocr.aug(
; CHECK-DAG: define internal double @rscale.adjoint.cocr.rev(
; CHECK-DAG: define internal { ptr, double } @rscale.adjoint.oocr.aug(
; CHECK-DAG: define internal { double, double } @rscale.adjoint.oocr.rev(
; CHECK-DAG: define internal { ptr, double } @f.adjoint.ocr.aug(
; CHECK-DAG: define internal double @f.adjoint.ocr.rev(
; CHECK-NOT: define internal {{.*}}@g.adjoint
