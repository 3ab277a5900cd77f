; The C library's sin, sinf and sinl differentiate to cos in the same
; precision: d sin(x) = cos(x).
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s > %t
; RUN: FileCheck %s --check-prefix=DOUBLE < %t
; RUN: FileCheck %s --check-prefix=FLOAT < %t
; RUN: FileCheck %s --check-prefix=LONG < %t

declare double @__enzyme_autodiff(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare x86_fp80 @__enzyme_autodiff_l(ptr, ...)
declare double @sin(double)
declare float @sinf(float)
declare x86_fp80 @sinl(x86_fp80)

define double @f(double %x) {
  %s = call double @sin(double %x)
  ret double %s
}

define float @ff(float %x) {
  %s = call float @sinf(float %x)
  ret float %s
}

define x86_fp80 @fl(x86_fp80 %x) {
  %s = call x86_fp80 @sinl(x86_fp80 %x)
  ret x86_fp80 %s
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

define float @caller_f(float %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff_f(ptr @ff, float %x)
  ret float %g
}

define x86_fp80 @caller_l(x86_fp80 %x) {
  %g = call x86_fp80 (ptr, ...) @__enzyme_autodiff_l(ptr @fl, x86_fp80 %x)
  ret x86_fp80 %g
}

; DOUBLE-LABEL: define internal double @f.adjoint.grad(double %x)
; DOUBLE:         call double @llvm.cos.f64(double %x)
; DOUBLE:         ret double

; FLOAT-LABEL: define internal float @ff.adjoint.grad(float %x)
; FLOAT:         call float @llvm.cos.f32(float %x)
; FLOAT:         ret float

; LONG-LABEL: define internal x86_fp80 @fl.adjoint.grad(x86_fp80 %x)
; LONG:         call x86_fp80 @llvm.cos.f80(x86_fp80 %x)
; LONG:         ret x86_fp80
