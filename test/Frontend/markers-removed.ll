; After the pass, the marker globals that only fed __enzyme_autodiff calls
; are gone (with the loads of them), and so are the __enzyme_autodiff
; declarations: the program links without defining either.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
@enzyme_out = external global i32
@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_autodiff_void(ptr, ...)

define double @f(double %x, i32 %n) {
  ret double %x
}

define void @g(ptr %p, ptr %q) {
  ret void
}

define double @caller(double %x, ptr %p, ptr %dp) {
  %k = load i32, ptr @enzyme_const
  %o = load i32, ptr @enzyme_out
  %d = load i32, ptr @enzyme_dup
  %g1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, double %x, i32 %k, i32 3)
  call void (ptr, ...) @__enzyme_autodiff_void(ptr @g, i32 %d, ptr %p, ptr %dp, ptr @enzyme_dupnoneed, ptr %p, ptr %dp)
  ret double %g1
}

; CHECK-NOT: @enzyme_
; CHECK-NOT: @__enzyme_autodiff
; CHECK:     define double @caller(
; CHECK-NOT: load
; CHECK:       call double @f.adjoint.grad(double %x, i32 3)
; CHECK:       call void @g.adjoint.grad(ptr %p, ptr %dp, ptr %p, ptr %dp)
; CHECK-NOT: @enzyme_
; CHECK-NOT: @__enzyme_autodiff
