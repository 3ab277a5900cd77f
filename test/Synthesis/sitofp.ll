; No derivative flows through integers: x + (double)((int)x * (int)x + 7) has
; derivative 1, and none of the integer arithmetic or conversions appears in
; the reverse pass.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s > %t
; RUN: FileCheck %s --check-prefix=F < %t
; RUN: FileCheck %s --check-prefix=G < %t

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %i = fptosi double %x to i32
  %j = mul i32 %i, %i
  %k = add i32 %j, 7
  %d = sitofp i32 %k to double
  %s = fadd double %d, %x
  ret double %s
}

; A constant integer argument converted to double scales x: d(x * n)/dx = n.
define double @g(double %x, i32 %n) {
  %d = sitofp i32 %n to double
  %s = fmul double %d, %x
  ret double %s
}

define double @caller(double %x, i32 %n) {
  %g1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %g2 = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x, i32 %n)
  %s = fadd double %g1, %g2
  ret double %s
}

; F-LABEL: define internal double @f.adjoint.grad(double %x)
; F-NEXT:  {{.*}}:
; F-NEXT:    ret double 1.000000e+00
; F-NEXT:  }

; G-LABEL: define internal double @g.adjoint.grad(double %x, i32 %n)
; G:         [[D:%.*]] = sitofp i32 %n to double
; G-NEXT:    ret double [[D]]
