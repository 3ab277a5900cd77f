; Without any __enzyme_autodiff call, marker globals are still resolved:
; referenced ones are defined, unreferenced declarations removed.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_out = external global i32
@enzyme_const = external global i32
@other = external global i32

define i32 @read() {
  %v = load i32, ptr @enzyme_const
  ret i32 %v
}

; CHECK-NOT: @enzyme_out
; CHECK:     @enzyme_const = {{.*}}global i32 {{[0-9]+}}
; CHECK:     @other = external global i32
; CHECK-NOT: @enzyme_out
