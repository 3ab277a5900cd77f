; A pointer into memory that holds derivatives, stored as an integer into
; memory that holds pointers with shadows: a pointer loaded back from there
; would find no shadow. Stores of a whole pointer's bits are rewritten into
; pointer stores before this check (RetypeAccesses.cpp), and so are integer
; stores the type analysis proves hold pointers, whose round trips through
; integers are reported instead (pointer-through-integer.c); half of a
; pointer cannot be, and is an error rather than a lost derivative.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %slots, ptr %x) {
  %bits = ptrtoint ptr %x to i64
  %low = trunc i64 %bits to i32
  store i32 %low, ptr %slots
  %v = load double, ptr %x
  %r = fmul double %v, %v
  ret double %r
}

define void @caller(ptr %s, ptr %ds, ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %s, ptr %ds, ptr %x,
                                          ptr %dx)
  ret void
}

; CHECK: error: {{.*}}adjoint: a pointer into memory that holds derivatives is stored as an integer, which loses its shadow; this cannot be differentiated yet (store the pointer itself)
