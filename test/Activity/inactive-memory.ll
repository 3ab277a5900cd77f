; Inactive memory generates no derivative code: an enzyme_const table and a
; local integer array feed a large integer computation whose only use in
; the active part is a scale factor. The gradient x -> t * x is t: no
; shadow allocation, no shadow access, no memset, and the only
; floating-point instruction is the conversion of t.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ptr %table, i64 %i, i64 %j) {
  %hist = alloca [4 x i64]
  call void @llvm.memset.p0.i64(ptr %hist, i8 0, i64 32, i1 false)
  %p = getelementptr inbounds i64, ptr %table, i64 %i
  %a = load i64, ptr %p
  %q = getelementptr inbounds i64, ptr %table, i64 %j
  %b = load i64, ptr %q
  %ab = mul i64 %a, %b
  %slot = and i64 %ab, 3
  %h = getelementptr inbounds [4 x i64], ptr %hist, i64 0, i64 %slot
  store i64 %ab, ptr %h
  %h0 = load i64, ptr %hist
  %s = add i64 %h0, %a
  %t = sitofp i64 %s to double
  %r = fmul double %x, %t
  ret double %r
}

define double @caller(double %x, ptr %table, i64 %i, i64 %j) {
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, ptr %table, i64 %i, i64 %j)
  ret double %g
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, ptr %table, i64 %i, i64 %j)
; CHECK-NOT:     shadow
; CHECK-NOT:     fmul
; CHECK-NOT:     fadd
; CHECK:         [[T:%.*]] = sitofp i64 {{%.*}} to double
; CHECK-NOT:     fmul
; CHECK-NOT:     fadd
; CHECK:         ret double
; CHECK-NEXT:  }
