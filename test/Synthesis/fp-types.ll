; Gradients in half, float and x86_fp80 are computed and returned in that
; type: d(x*x) = 2x, d(3x) = 3.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s > %t
; RUN: FileCheck %s --check-prefix=HALF < %t
; RUN: FileCheck %s --check-prefix=FLOAT < %t
; RUN: FileCheck %s --check-prefix=FP80 < %t

declare half @__enzyme_autodiff_h(ptr, ...)
declare float @__enzyme_autodiff_f(ptr, ...)
declare x86_fp80 @__enzyme_autodiff_l(ptr, ...)

define half @fh(half %x) {
  %m = fmul half %x, %x
  ret half %m
}

define float @ff(float %x) {
  %m = fmul float %x, 3.0
  ret float %m
}

define x86_fp80 @fl(x86_fp80 %x) {
  %m = fmul x86_fp80 %x, %x
  ret x86_fp80 %m
}

define half @ch(half %x) {
  %g = call half (ptr, ...) @__enzyme_autodiff_h(ptr @fh, half %x)
  ret half %g
}

define float @cf(float %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff_f(ptr @ff, float %x)
  ret float %g
}

define x86_fp80 @cl(x86_fp80 %x) {
  %g = call x86_fp80 (ptr, ...) @__enzyme_autodiff_l(ptr @fl, x86_fp80 %x)
  ret x86_fp80 %g
}

; HALF-LABEL: define half @ch(half %x)
; HALF:         call half @fh.adjoint.grad(half %x)
; HALF-LABEL: define internal half @fh.adjoint.grad(half %x)
; HALF:         fadd half %x, %x
; HALF:         ret half

; FLOAT-LABEL: define internal float @ff.adjoint.grad(float %x)
; FLOAT-NEXT:  {{.*}}:
; FLOAT-NEXT:    ret float 3.000000e+00

; FP80-LABEL: define x86_fp80 @cl(x86_fp80 %x)
; FP80:         call x86_fp80 @fl.adjoint.grad(x86_fp80 %x)
; FP80-LABEL: define internal x86_fp80 @fl.adjoint.grad(x86_fp80 %x)
; FP80:         fadd x86_fp80 %x, %x
; FP80:         ret x86_fp80
