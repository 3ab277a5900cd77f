; The gradient function takes the primal parameters, each duplicated pointer
; immediately followed by its shadow, and returns the gradients of the
; enzyme_out parameters: nothing, the one gradient, or a literal struct of
; them in parameter order.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32
declare double @__enzyme_autodiff_one(ptr, ...)
declare { double, float } @__enzyme_autodiff_two(ptr, ...)
declare void @__enzyme_autodiff_none(ptr, ...)

define double @mixed(double %x, ptr %p, i32 %n, ptr %q, float %y) {
  %yd = fpext float %y to double
  %m = fmul double %x, %yd
  ret double %m
}

define double @one(double %x, double %c) {
  %m = fmul double %x, %c
  ret double %m
}

define void @none(ptr %p, double %c) {
  ret void
}

define { double, float } @call_mixed(double %x, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq, float %y) {
  %o = load i32, ptr @enzyme_out
  %d = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  %dn = load i32, ptr @enzyme_dupnoneed
  %g = call { double, float } (ptr, ...) @__enzyme_autodiff_two(ptr @mixed, i32 %o, double %x, i32 %d, ptr %p, ptr %dp, i32 %k, i32 %n, i32 %dn, ptr %q, ptr %dq, float %y)
  ret { double, float } %g
}

define double @call_one(double %x, double %c) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff_one(ptr @one, double %x, i32 %k, double %c)
  ret double %g
}

define void @call_none(ptr %p, ptr %dp, double %c) {
  %k = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff_none(ptr @none, ptr %p, ptr %dp, i32 %k, double %c)
  ret void
}

; The call sites pass the shadows right after their pointers.
; CHECK-LABEL: define { double, float } @call_mixed(
; CHECK:         call { double, float } @mixed.adjoint.grad(double %x, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq, float %y)
; CHECK-LABEL: define double @call_one(
; CHECK:         call double @one.adjoint.grad(double %x, double %c)
; CHECK-LABEL: define void @call_none(
; CHECK:         call void @none.adjoint.grad(ptr %p, ptr %dp, double %c)

; CHECK-DAG: define internal { double, float } @mixed.adjoint.grad(double %x, ptr %p, ptr %p.shadow, i32 %n, ptr %q, ptr %q.shadow, float %y)
; CHECK-DAG: define internal double @one.adjoint.grad(double %x, double %c)
; CHECK-DAG: define internal void @none.adjoint.grad(ptr %p, ptr %p.shadow, double %c)
