; A marker global still referenced after the pass (here passed to another
; function) gets a definition, so that programs which never define it link.
; Unreferenced ones disappear.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare void @use(ptr)

define double @f(double %x, i32 %n) {
  ret double %x
}

define double @caller(double %x) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, i32 3)
  call void @use(ptr @enzyme_dup)
  ret double %g
}

; CHECK-NOT: @enzyme_const
; CHECK:     @enzyme_dup = {{.*}}global i32 {{[0-9]+}}
; CHECK-NOT: @enzyme_const
