; Defined callees are inlined into the function being differentiated, but a
; recursive call remains a call, which is not supported yet: the error names
; the callee.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @pow_rec(double %x, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %rec, label %base
rec:
  %n1 = sub i32 %n, 1
  %r = call double @pow_rec(double %x, i32 %n1)
  %m = fmul double %x, %r
  ret double %m
base:
  ret double 1.0
}

define double @caller(double %x, i32 %n) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @pow_rec, double %x, i32 %k, i32 %n)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: call to 'pow_rec' cannot be differentiated yet: it is recursive or too large to inline{{.*}}(in the gradient of 'pow_rec' requested at function 'caller')
