; An sret struct of three doubles for two gradients is an error.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

%struct.G = type { double, double, double }
declare void @__enzyme_autodiff(ptr, ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define void @caller(ptr %out, double %x, double %y) {
  call void (ptr, ptr, ...) @__enzyme_autodiff(ptr sret(%struct.G) %out, ptr @f, double %x, double %y)
  ret void
}

; CHECK: error: {{.*}}adjoint: __enzyme_autodiff is declared to return struct.G but 'f' has 2 enzyme_out gradient value(s)
