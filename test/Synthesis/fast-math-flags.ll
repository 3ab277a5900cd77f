; The derivative arithmetic of an instruction carries that instruction's
; fast-math flags. d = sin(x) * x / y with different flags on each step:
; dd/dx = (x*cos(x) + sin(x)) / y.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @f(double %x, double %y) {
  %s = call nsz arcp double @llvm.sin.f64(double %x)
  %m = fmul reassoc nnan double %s, %x
  %d = fdiv ninf double %m, %y
  ret double %d
}

define double @caller(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr @enzyme_const, double %y)
  ret double %g
}

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, double %y)
; The fdiv's adjoint: 1/y.
; CHECK-DAG:     [[ADJM:%.*]] = fdiv ninf double 1.000000e+00, %y
; The fmul's: x/y to sin's result, sin(x)/y to x.
; CHECK-DAG:     [[ADJS:%.*]] = fmul reassoc nnan double [[ADJM]], %x
; CHECK-DAG:     [[FROMM:%.*]] = fmul reassoc nnan double [[ADJM]], %s
; sin's: times cos(x), accumulated into x.
; CHECK-DAG:     [[COS:%.*]] = call nsz arcp double @llvm.cos.f64(double %x)
; CHECK-DAG:     [[FROMS:%.*]] = fmul nsz arcp double [[ADJS]], [[COS]]
; CHECK-DAG:     fadd nsz arcp double [[FROMM]], [[FROMS]]
