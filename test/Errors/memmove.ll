; memmove on memory that holds derivatives is not supported yet (its
; reverse must cope with overlap); memcpy is.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %p) {
  %q = getelementptr inbounds double, ptr %p, i64 1
  call void @llvm.memmove.p0.p0.i64(ptr %q, ptr %p, i64 16, i1 false)
  %v = load double, ptr %q
  ret double %v
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK: error: {{.*}}adjoint: moving memory that holds derivatives with memmove is not supported yet (memcpy is)
