; A call of a function with a registered forward derivative stays (it does
; the primal work) and is followed by a call of the derivative, which gets
; each floating-point and pointer argument followed by its tangent (zero
; for a constant) and returns the result's tangent; f's body is not
; differentiated. A derivative declared with tangents only for the
; arguments that carry derivatives at the call (g_fwd) is called that way.
; A registered function without a body (h) writes through its pointer
; arguments as far as activity is concerned: its output carries the
; derivative that its registered derivative writes into the shadow.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %c) noinline {
  %m = fmul double %x, %c
  ret double %m
}
define double @f_fwd(double %x, double %dx, double %c, double %dc) {
  %m = fmul double %dx, %c
  ret double %m
}
@__enzyme_register_derivative_f = global [2 x ptr] [ptr @f, ptr @f_fwd]

define void @g(ptr %p, double %x, double %c) noinline {
  %m = fmul double %x, %c
  store double %m, ptr %p
  ret void
}
; Takes tangents only for what carries derivatives at the call (c is
; constant there).
define void @g_fwd(ptr %p, ptr %dp, double %x, double %dx, double %c) {
  %m = fmul double %dx, %c
  store double %m, ptr %dp
  ret void
}
@__enzyme_register_derivative_g = global [2 x ptr] [ptr @g, ptr @g_fwd]

declare void @h(double, ptr)
declare void @h_fwd(double, double, ptr, ptr)
@__enzyme_register_derivative_h = global [2 x ptr] [ptr @h, ptr @h_fwd]

define double @user(double %x) {
  %a = call double @f(double %x, double 2.0)
  %slot = alloca double
  call void @g(ptr %slot, double %x, double 3.0)
  %v = load double, ptr %slot
  %s = fmul double %a, %v
  %out = alloca double
  call void @h(double %x, ptr %out)
  %o = load double, ptr %out
  %t = fadd double %s, %o
  ret double %t
}

define double @call_user(double %x) {
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @user, double %x, double 1.0)
  ret double %g
}

; CHECK-LABEL: define internal double @user.adjoint.fwd(double %x, double %x.tangent)
; CHECK-NEXT:    %a = call double @f(double %x, double 2.000000e+00)
; CHECK-NEXT:    %a.tangent = call double @f_fwd(double %x, double %x.tangent, double 2.000000e+00, double 0.000000e+00)
; CHECK:         %slot.shadow = alloca double
; CHECK:         call void @g(ptr nonnull %slot, double %x, double 3.000000e+00)
; CHECK-NEXT:    call void @g_fwd(ptr nonnull %slot, ptr nonnull %slot.shadow, double %x, double %x.tangent, double 3.000000e+00)
; CHECK-NEXT:    %v = load double, ptr %slot
; CHECK-NEXT:    %v.tangent = load double, ptr %slot.shadow
; CHECK:         %out.shadow = alloca double
; CHECK:         call void @h(double %x, ptr nonnull %out)
; CHECK-NEXT:    call void @h_fwd(double %x, double %x.tangent, ptr nonnull %out, ptr nonnull %out.shadow)
; CHECK-NEXT:    %o.tangent = load double, ptr %out.shadow
; CHECK:         ret double %t.tangent
; CHECK-NOT:   define internal
