; enzyme_dup consumes a value and a shadow: here the arguments end first.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %p) {
  ret void
}

define void @caller(ptr %p) {
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %d, ptr %p)
  ret void
}

; CHECK: error: {{.*}}adjoint: missing shadow after enzyme_dup for parameter 1 of 'g'
