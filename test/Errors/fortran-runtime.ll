; A call into flang's runtime that carries derivatives and that no model
; applies to is an error that names the Fortran operation: CSHIFT has a
; model for REAL and COMPLEX vectors, but this one shifts a descriptor the
; function received, whose type the plugin cannot know.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare {} @_FortranACshiftVector(ptr, ptr, i64, ptr, i32)

@file = private constant [6 x i8] c"f.f90\00"

define double @f(double %x, ptr %source) {
  %result = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }
  store double %x, ptr %source
  %unused = call {} @_FortranACshiftVector(ptr %result, ptr %source, i64 1, ptr @file, i32 4)
  %r = load ptr, ptr %result
  %v = load double, ptr %r
  ret double %v
}

define double @caller(double %x, ptr %s, ptr %ds) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %s, ptr %ds)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: '_FortranACshiftVector' (CSHIFT) is a function of the Fortran runtime that Adjoint cannot differentiate through yet; write the operation with loops or array expressions in the differentiated code, or keep the data it reads out of the derivative (enzyme_const) (in the gradient of 'f' requested at function 'caller')
