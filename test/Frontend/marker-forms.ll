; A marker is recognised by the global's name, whether the call receives the
; value loaded from it (C's `enzyme_const`), its address, or the address
; converted to an integer.
; RUN: %opt-adjoint -passes=adjoint -S %s > %t
; RUN: FileCheck %s < %t
; RUN: FileCheck %s --check-prefix=DZ < %t
; RUN: FileCheck %s --check-prefix=DX < %t

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y, double %z) {
  %m = fmul double %x, %y
  %n = fmul double %m, %z
  ret double %n
}

define double @caller(double %x, double %y, double %z) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %k, double %x, ptr @enzyme_const, double %y, double %z)
  %h = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 ptrtoint (ptr @enzyme_const to i64), double %y, i32 %k, double %z)
  %s = fadd double %g, %h
  ret double %s
}

; The markers are gone; the first call asks for d/dz, the second for d/dx.
; CHECK-NOT:     @enzyme_const
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:    call double @f.adjoint.grad{{[.0-9]*}}(double %x, double %y, double %z)
; CHECK-NEXT:    call double @f.adjoint.grad{{[.0-9]*}}(double %x, double %y, double %z)
; CHECK-NOT:     @enzyme_const

; d/dz = x*y
; DZ-LABEL: define double @caller(
; DZ-NEXT:    call double [[GZ:@f\.adjoint\.grad[.0-9]*]](
; DZ:       define internal double [[GZ]](
; DZ-NOT:     {{^}}}
; DZ:         fmul double %x, %y

; d/dx = y*z
; DX-LABEL: define double @caller(
; DX-NEXT:    call double
; DX-NEXT:    call double [[GX:@f\.adjoint\.grad[.0-9]*]](
; DX:       define internal double [[GX]](
; DX-NOT:     {{^}}}
; DX:         fmul double %y, %z
