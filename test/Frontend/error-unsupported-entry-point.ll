; Enzyme entry points other than __enzyme_autodiff and __enzyme_fwddiff
; (the split forward mode, ...) are not implemented yet: a clear error rather
; than an undefined symbol at link time. Both implemented ones still work
; in the same module.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare ptr @__enzyme_fwdsplit(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define ptr @caller(double %x) {
  %t = call ptr (ptr, ...) @__enzyme_fwdsplit(ptr @f, double %x)
  ret ptr %t
}

define double @caller2(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %s = fadd double %d, %g
  ret double %s
}

; CHECK: error: {{.*}}adjoint: '__enzyme_fwdsplit' is not supported yet; Adjoint implements reverse mode through __enzyme_autodiff (split: __enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize) and forward mode through __enzyme_fwddiff
; CHECK-NOT: error
