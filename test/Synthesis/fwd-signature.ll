; The forward derivative takes the primal parameters, each duplicated one
; followed by its tangent (a floating-point value: default or enzyme_dup) or
; its shadow (a pointer: default, enzyme_dup, enzyme_dupnoneed), nothing
; after enzyme_const and integer parameters, and returns the tangent of the
; floating-point return value, or nothing when fn returns something else.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)
declare void @__enzyme_fwddiff_v(ptr, ...)

define double @mixed(double %x, ptr %p, i32 %n, ptr %q, float %y) {
  %yd = fpext float %y to double
  %m = fmul double %x, %yd
  %v = load double, ptr %p
  %s = fadd double %m, %v
  store double %s, ptr %q
  ret double %s
}

define i32 @count(ptr %p, double %x) {
  store double %x, ptr %p
  ret i32 3
}

define double @call_mixed(double %x, double %dx, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq, float %y) {
  %d = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  %dn = load i32, ptr @enzyme_dupnoneed
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @mixed, double %x, double %dx, i32 %d, ptr %p, ptr %dp, i32 %n, i32 %dn, ptr %q, ptr %dq, i32 %k, float %y)
  ret double %g
}

define void @call_count(ptr %p, ptr %dp, double %x, double %dx) {
  call void (ptr, ...) @__enzyme_fwddiff_v(ptr @count, ptr %p, ptr %dp, double %x, double %dx)
  ret void
}

; The call sites pass each tangent or shadow right after its value.
; CHECK-LABEL: define double @call_mixed(
; CHECK:         call double @mixed.adjoint.fwd(double %x, double %dx, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq, float %y)
; CHECK-LABEL: define void @call_count(
; CHECK:         call void @count.adjoint.fwd(ptr %p, ptr %dp, double %x, double %dx)

; CHECK-LABEL: define internal double @mixed.adjoint.fwd(double %x, double %x.tangent, ptr %p, ptr %p.shadow, i32 %n, ptr %q, ptr %q.shadow, float %y)
; CHECK:         ret double %s.tangent
; CHECK-LABEL: define internal void @count.adjoint.fwd(ptr %p, ptr %p.shadow, double %x, double %x.tangent)
; CHECK:         ret void
