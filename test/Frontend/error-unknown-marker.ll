; enzyme_width (a forward-mode vector width in Enzyme) is not an activity
; marker this entry point accepts; the message lists the ones it does.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

@enzyme_width = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %w = load i32, ptr @enzyme_width
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %w, double %x)
  ret double %g
}

; CHECK: error: {{.*}}adjoint: unsupported activity marker 'enzyme_width'; use enzyme_dup, enzyme_dupnoneed, enzyme_const or enzyme_out
