; Two markers in a row leave the first without a value; say so rather than
; complaining about the type of the second marker.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_const = external global i32
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %c = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c, i32 %d, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: two activity markers in a row ('enzyme_const', 'enzyme_dup') before the value for parameter 1 of 'f'
