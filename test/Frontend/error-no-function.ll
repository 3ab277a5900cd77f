; A call without any argument has no function to differentiate.
; RUN: not %opt-adjoint -passes=adjoint -disable-output %s 2>&1 | FileCheck %s

declare double @__enzyme_autodiff(...)

define double @caller() {
  %g = call double (...) @__enzyme_autodiff()
  ret double %g
}

; CHECK: error: {{.*}}adjoint: __enzyme_autodiff needs the function to differentiate as its first argument
