; The shadow after enzyme_dup is missing when the next argument is already
; the marker of the following parameter.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %p, i32 %n) {
  ret void
}

define void @caller(ptr %p) {
  %d = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %p, i32 %k, i32 3)
  ret void
}

; CHECK: error: {{.*}}adjoint: missing shadow after enzyme_dup for parameter 1 of 'f'
