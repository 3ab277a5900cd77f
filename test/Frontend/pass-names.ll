; The pass is available as `adjoint`, as `enzyme` (for build scripts written
; for Enzyme), and as adjoint<O0> ... adjoint<O3>, which choose how the
; generated functions are cleaned up. Other levels are rejected.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s
; RUN: %opt-adjoint -passes=enzyme -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O1>' -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O2>' -S %s | FileCheck %s
; RUN: %opt-adjoint -passes='adjoint<O3>' -S %s | FileCheck %s
; RUN: not %opt-adjoint -passes='adjoint<O4>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, 3.0
  ret double %m
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define double @caller(double %x)
; CHECK-NEXT:    call double @f.adjoint.grad(double %x)
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x)
; CHECK:         ret double 3.000000e+00

; BAD: unknown pass name 'adjoint<O4>'
