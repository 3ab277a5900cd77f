; Copying memory between differentiated pointers (a C struct assignment
; *out = *in becomes memcpy) moves derivatives: in reverse, d_in += d_out
; and d_out = 0, for the bytes that hold floats. Nothing here (nor in the
; caller) says what the 16 bytes hold, so this must be an error naming them.
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

; CHECK: error: {{.*}}adjoint: memcpy over memory that holds derivatives: cannot tell which of the bytes it copies are floating-point numbers (bytes 0..15 have no known type)
