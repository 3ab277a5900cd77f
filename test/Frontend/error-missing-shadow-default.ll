; A pointer without a marker is enzyme_dup, and needs a shadow as well.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %p) {
  ret void
}

define void @caller(ptr %p) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %p)
  ret void
}

; CHECK: error: {{.*}}adjoint: missing shadow for parameter 1 of 'g': a pointer without a marker is enzyme_dup and is followed by its shadow; pass one, or mark the pointer enzyme_const
