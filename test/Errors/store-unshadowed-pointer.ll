; A pointer without a shadow (passed enzyme_const) stored into memory that
; holds pointers with shadows: a later load of it would find a null shadow.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p, ptr %q, i64 %k) {
  %arr = alloca [2 x ptr]
  store ptr %p, ptr %arr
  %a1 = getelementptr inbounds ptr, ptr %arr, i64 1
  store ptr %q, ptr %a1
  %slot = getelementptr inbounds ptr, ptr %arr, i64 %k
  %r = load ptr, ptr %slot
  %v = load double, ptr %r
  ret double %v
}

define void @caller(ptr %p, ptr %dp, ptr %q, i64 %k) {
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, i32 %c, ptr %q, i64 %k)
  ret void
}

; CHECK: error: {{.*}}adjoint: a pointer without a shadow ('q') is stored into memory that holds pointers with shadows; this is not supported yet (pass it enzyme_dup)
