; A struct of three doubles is returned through an sret pointer, which comes
; before the function argument: the gradients are stored through it.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

%struct.G = type { double, double, double }
declare void @__enzyme_autodiff(ptr, ptr, ...)

define double @f(double %x, double %y, double %z) {
  %m = fmul double %x, %y
  %n = fdiv double %m, %z
  ret double %n
}

define void @caller(ptr %out, double %x, double %y, double %z) {
  call void (ptr, ptr, ...) @__enzyme_autodiff(ptr sret(%struct.G) align 8 %out, ptr @f, double %x, double %y, double %z)
  ret void
}

; CHECK-LABEL: define void @caller(ptr %out, double %x, double %y, double %z)
; CHECK:         [[G:%.*]] = call { double, double, double } @f.adjoint.grad(double %x, double %y, double %z)
; CHECK-DAG:     [[DX:%.*]] = extractvalue { double, double, double } [[G]], 0
; CHECK-DAG:     [[DY:%.*]] = extractvalue { double, double, double } [[G]], 1
; CHECK-DAG:     [[DZ:%.*]] = extractvalue { double, double, double } [[G]], 2
; CHECK:         [[S0:%.*]] = insertvalue %struct.G poison, double [[DX]], 0
; CHECK-NEXT:    [[S1:%.*]] = insertvalue %struct.G [[S0]], double [[DY]], 1
; CHECK-NEXT:    [[S2:%.*]] = insertvalue %struct.G [[S1]], double [[DZ]], 2
; CHECK-NEXT:    store %struct.G [[S2]], ptr %out
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal { double, double, double } @f.adjoint.grad(double %x, double %y, double %z)
