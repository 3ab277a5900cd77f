; A call on a phi of functions (SimplifyCFG sinks calls that differ only in
; the function into their common successor) is split back into one call
; per function, chosen by comparing the pointer; the results meet in a phi.
; error-fn-phi-unknown.ll: a phi with an unknown value is still rejected.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @g(double %x) {
  %r = fmul double %x, 3.0
  ret double %r
}

define double @h(double %x) {
  %r = fadd double %x, 1.0
  ret double %r
}

define double @caller(i32 %which, double %x) {
entry:
  switch i32 %which, label %other [ i32 0, label %first
                                    i32 1, label %second ]
first:
  br label %join
second:
  br label %join
other:
  br label %join
join:
  %fn = phi ptr [ @f, %first ], [ @g, %second ], [ @h, %other ]
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %x)
  ret double %d
}

; CHECK-LABEL: define double @caller(
; CHECK:       join:
; CHECK-NEXT:    %fn = phi ptr
; CHECK-NEXT:    [[IS_F:%.*]] = icmp eq ptr %fn, @f
; CHECK-NEXT:    br i1 [[IS_F]], label %join.on.f, label %join.next
; CHECK:       join.on.f:
; CHECK-NEXT:    [[DF:%.*]] = call double @f.adjoint.grad(double %x)
; CHECK:       join.next:
; CHECK-NEXT:    [[IS_G:%.*]] = icmp eq ptr %fn, @g
; CHECK-NEXT:    br i1 [[IS_G]], label %join.on.g, label %[[ON_H:.*]]
; CHECK:       join.on.g:
; CHECK-NEXT:    [[DG:%.*]] = call double @g.adjoint.grad(double %x)
; CHECK:       [[ON_H]]:
; CHECK-NEXT:    [[DH:%.*]] = call double @h.adjoint.grad(double %x)
; CHECK:       join.dispatched:
; CHECK-NEXT:    phi double [ [[DF]], %join.on.f ], [ [[DG]], %join.on.g ], [ [[DH]], %[[ON_H]] ]
