; flang's PRINT passes each item to a _FortranAioOutput* call, which only
; prints: a value that carries a derivative may reach it, and the gradient
; prints it too.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @_FortranAioBeginExternalListOutput(i32, ptr, i32)
declare i1 @_FortranAioOutputReal64(ptr, double)
declare i32 @_FortranAioEndIoStatement(ptr)

@file = private constant [6 x i8] c"f.f90\00"

define double @f(double %x) {
  %sq = fmul double %x, %x
  %io = call ptr @_FortranAioBeginExternalListOutput(i32 6, ptr @file, i32 5)
  %printed = call i1 @_FortranAioOutputReal64(ptr %io, double %sq)
  %end = call i32 @_FortranAioEndIoStatement(ptr %io)
  ret double %sq
}

define double @caller(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @f.adjoint.grad(double %x)
; CHECK: %[[SQ:.*]] = fmul double %x, %x
; CHECK: call i1 @_FortranAioOutputReal64(ptr %{{.*}}, double %[[SQ]])
; CHECK: fadd double %x, %x
