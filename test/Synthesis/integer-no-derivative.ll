; Integer computations take no part in differentiation. The only active
; arithmetic here is x + 1.0; sf*sf is computed from integers only, so it is
; constant and has no derivative code: the gradient contains no
; floating-point multiplication, and the integer code is kept only because
; the branch condition needs it.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i64 %n, i32 %k) {
  %n2 = mul i64 %n, %n
  %n3 = shl i64 %n2, 3
  %kk = mul nsw i32 %k, 12345
  %kx = sext i32 %kk to i64
  %s = add i64 %n3, %kx
  %sf = sitofp i64 %s to double
  %sq = fmul double %sf, %sf
  %a = fadd double %x, 1.0
  %c = icmp sgt i64 %s, 100
  %r = select i1 %c, double %a, double %sq
  ret double %r
}

define double @caller(double %x, i64 %n, i32 %k) {
  %kc = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %kc, i64 %n, i32 %kc, i32 %k)
  ret double %g
}

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x, i64 %n, i32 %k)
; CHECK-NOT:     fmul
; CHECK-NOT:     sitofp
; CHECK:         [[C:%.*]] = icmp sgt i64 %s, 100
; CHECK-NEXT:    [[D:%.*]] = select i1 [[C]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    ret double [[D]]
; CHECK-NEXT:  }
