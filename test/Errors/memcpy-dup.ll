; Copying memory between differentiated pointers (a C struct assignment
; *out = *in becomes memcpy) moves derivatives: in reverse, d_in += d_out
; and d_out = 0. Until memory is supported this must be an error.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %out, ptr %in) {
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 16, i1 false)
  ret void
}

define void @caller(ptr %out, ptr %dout, ptr %in, ptr %din) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %out, ptr %dout, ptr %in, ptr %din)
  ret void
}

; CHECK: error: {{.*}}adjoint: copying memory that holds derivatives (memcpy, memmove) is not supported yet
