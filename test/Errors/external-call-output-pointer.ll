; An external function writing through a differentiated (enzyme_dup)
; pointer what it computes from an active value: the gradient of x comes
; from the shadow of out, which the plugin cannot follow into the call.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare void @compute(double, ptr)

define void @f(double %x, ptr %out) {
  call void @compute(double %x, ptr %out)
  ret void
}

define double @caller(double %x, ptr %o, ptr %do) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %o, ptr %do)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: call to 'compute' receives a value that carries a derivative
