; A cycle with two entries (a jump into the middle of a loop) is not a loop:
; there is no header at which the reverse could leave it. The error says so
; and where.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i32 %n) {
entry:
  %skip = icmp sgt i32 %n, 3
  br i1 %skip, label %second, label %first
first:
  %r1 = phi double [ 1.0, %entry ], [ %r2.next, %second ]
  %r1.next = fmul double %r1, %x
  br label %second
second:
  %r2 = phi double [ %x, %entry ], [ %r1.next, %first ]
  %r2.next = fadd double %r2, 1.0
  %done = fcmp ogt double %r2.next, 100.0
  br i1 %done, label %exit, label %first
exit:
  ret double %r2.next
}

define double @caller(double %x, i32 %n) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, i32 %n)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: the function contains a cycle that is not a loop (a jump into the middle of a loop, e.g. a goto); restructure it so that every loop is entered at its top (in the gradient of 'f' requested at function 'caller')
; CHECK-NOT: error:
