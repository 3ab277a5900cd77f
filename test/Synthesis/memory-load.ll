; Reading active data through an enzyme_dup pointer: the reverse adds each
; loaded value's adjoint into the shadow at the same address.
; f(p) = p[0]*p[0] + p[1], so dp[0] += 2*p[0] and dp[1] += 1.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %a = load double, ptr %p
  %q = getelementptr inbounds double, ptr %p, i64 1
  %b = load double, ptr %q
  %sq = fmul double %a, %a
  %r = fadd double %sq, %b
  ret double %r
}

define void @caller(ptr %p, ptr %dp) {
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @f.adjoint.grad(ptr %p, ptr %p.shadow)
; CHECK-DAG:     [[A:%.*]] = load double, ptr %p
; CHECK-DAG:     [[QS:%.*]] = getelementptr inbounds i8, ptr %p.shadow, i64 8
; CHECK-DAG:     [[OLDB:%.*]] = load double, ptr [[QS]]
; CHECK-DAG:     [[NEWB:%.*]] = fadd double [[OLDB]], 1.000000e+00
; CHECK-DAG:     store double [[NEWB]], ptr [[QS]]
; CHECK-DAG:     [[TWOA:%.*]] = fadd double [[A]], [[A]]
; CHECK-DAG:     [[OLDA:%.*]] = load double, ptr %p.shadow
; CHECK-DAG:     [[NEWA:%.*]] = fadd double [[TWOA]], [[OLDA]]
; CHECK-DAG:     store double [[NEWA]], ptr %p.shadow
; CHECK:         ret void
