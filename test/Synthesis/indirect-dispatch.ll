; A call through a pointer calls a dispatching pair for its function type
; and call pattern: it compares the pointer with each function of that type
; whose address is used (@g, @h; not @f, which is only named to the API, nor
; @k, which is only called) and calls that function's pair; any other target
; reaches adjoint.no.derivative, which aborts naming it.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@fp = global ptr null
@table = global [2 x ptr] [ptr @g, ptr @h]
declare double @__enzyme_autodiff(ptr, ...)

define double @g(double %x) {
  %r = fmul double %x, %x
  ret double %r
}
define double @h(double %x) {
  %r = fmul double %x, 3.0
  ret double %r
}
define double @k(double %x) {
  %r = call double @g(double %x)
  ret double %r
}

define double @f(double %x) {
  %p = load ptr, ptr @fp
  %r = call double %p(double %x)
  ret double %r
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x)
; CHECK: call { ptr, double } @adjoint.indirect.or.aug(ptr %p, double %x)
; CHECK: call double @adjoint.indirect.or.rev(ptr %p, double %x, double {{.*}}, ptr

; CHECK-LABEL: define internal { ptr, double } @adjoint.indirect.or.aug(ptr %0, double %1)
; CHECK-DAG: icmp eq ptr %0, @g
; CHECK-DAG: icmp eq ptr %0, @h
; CHECK-DAG: call { ptr, double } @g.adjoint.or.aug(double %1)
; CHECK-DAG: call { ptr, double } @h.adjoint.or.aug(double %1)
; CHECK: call void @adjoint.no.derivative(ptr %0)

; CHECK-LABEL: define internal void @adjoint.no.derivative(ptr %0)
; CHECK: call i32 @dladdr(
; CHECK: call i32 (i32, ptr, ...) @dprintf(i32 2,
; CHECK: call void @abort()

; CHECK-LABEL: define internal double @adjoint.indirect.or.rev(ptr %0, double %1, double %2, ptr %3)
; CHECK-DAG: call double @g.adjoint.or.rev(double %1, double %2, ptr %3)
; CHECK-DAG: call double @h.adjoint.or.rev(double %1, double %2, ptr %3)
; CHECK-NOT: @k.adjoint
; CHECK-NOT: @f.adjoint.or
