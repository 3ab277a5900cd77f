; enzyme_out needs a floating-point value passed by value; on a pointer the
; message suggests enzyme_dup.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_out = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %p) {
  ret void
}

define void @caller(ptr %p) {
  %o = load i32, ptr @enzyme_out
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, ptr %p)
  ret void
}

; CHECK: error: {{.*}}adjoint: enzyme_out on parameter 1 of 'f' of type ptr: only floating-point values passed by value can be enzyme_out; use enzyme_dup with a shadow
