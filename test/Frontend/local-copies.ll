; At -O0 the function, the markers and even the entry point can reach the
; call through local variables (stack slots stored once), e.g. after an
; always-inline helper. They are looked through; the slot that held the
; entry point is removed with the call, so no reference to it is left.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x, double %y) {
  %fnslot = alloca ptr
  %mslot = alloca i32
  %epslot = alloca ptr
  store ptr @f, ptr %fnslot
  %k = load i32, ptr @enzyme_const
  store i32 %k, ptr %mslot
  store ptr @__enzyme_autodiff, ptr %epslot
  %fn = load ptr, ptr %fnslot
  %m = load i32, ptr %mslot
  %ep = load ptr, ptr %epslot
  %g = call double (ptr, ...) %ep(ptr %fn, double %x, i32 %m, double %y)
  ret double %g
}

; y is enzyme_const: the gradient is d(x*y)/dx = y.
; CHECK-NOT:     __enzyme_autodiff
; CHECK-LABEL: define double @caller(
; CHECK-NOT:     %epslot
; CHECK:         [[G:%.*]] = call double @f.adjoint.grad(double %x, double %y)
; CHECK-NEXT:    ret double [[G]]
; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, double %y)
; CHECK:         fadd double %y, 0.000000e+00
; CHECK-NOT:     __enzyme_autodiff
