; Complex functions from the rule table, in the forms the x86-64 ABI gives
; them. d(x*y)/dx = y for __muldc3 (two doubles per complex number, a pair
; returned): the adjoint of re(x) is re(y) adj.re + im(y) adj.im, that of
; im(x) is re(y) adj.im - im(y) adj.re (conj(y) times the adjoint), and the
; call is not repeated in the reverse. cexpf takes and returns
; <2 x float>: its share is a vector.
; cabs returns a real: its shares are the parts of x over |x|.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare { double, double } @__muldc3(double, double, double, double)
declare <2 x float> @cexpf(<2 x float>)
declare double @cabs(double, double)
declare { double, double } @__enzyme_autodiff_d2(ptr, ...)
declare <2 x float> @__enzyme_autodiff_v(ptr, ...)
declare { double, double } @__enzyme_autodiff_ab(ptr, ...)
@enzyme_const = external global i32

; re(x * y) + im(x * y), with y constant: the seed is 1 + i, so the
; adjoints are re(y) + im(y) and re(y) - im(y).
define double @mul(double %a, double %b, double %c, double %d) {
  %p = call { double, double } @__muldc3(double %a, double %b, double %c, double %d)
  %re = extractvalue { double, double } %p, 0
  %im = extractvalue { double, double } %p, 1
  %s = fadd double %re, %im
  ret double %s
}

define float @exp(<2 x float> %z) {
  %e = call <2 x float> @cexpf(<2 x float> %z)
  %re = extractelement <2 x float> %e, i64 0
  ret float %re
}

define double @abs(double %a, double %b) {
  %r = call double @cabs(double %a, double %b)
  ret double %r
}

define void @caller(double %a, double %b, double %c, double %d, <2 x float> %z) {
  %k = load i32, ptr @enzyme_const
  %g1 = call { double, double } (ptr, ...) @__enzyme_autodiff_d2(ptr @mul, double %a, double %b, i32 %k, double %c, i32 %k, double %d)
  %g2 = call <2 x float> (ptr, ...) @__enzyme_autodiff_v(ptr @exp, <2 x float> %z)
  %g3 = call { double, double } (ptr, ...) @__enzyme_autodiff_ab(ptr @abs, double %a, double %b)
  ret void
}

; CHECK-LABEL: define internal { double, double } @mul.adjoint.grad(
; CHECK:         call { double, double } @__muldc3(
; CHECK-NOT:     call {{.*}}@__muldc3(
; CHECK-DAG:     fadd double %c, %d
; CHECK-DAG:     fsub double %c, %d
; CHECK:         ret { double, double }

; CHECK-LABEL: define internal <2 x float> @exp.adjoint.grad(<2 x float> %z)
; CHECK:         call <2 x float> @cexpf(<2 x float> %z)
; CHECK:         insertelement <2 x float>
; CHECK:         ret <2 x float>

; CHECK-LABEL: define internal { double, double } @abs.adjoint.grad(
; CHECK:         [[R:%.*]] = call double @cabs(double %a, double %b)
; CHECK-DAG:     fdiv double %a, [[R]]
; CHECK-DAG:     fdiv double %b, [[R]]
; CHECK:         ret { double, double }
