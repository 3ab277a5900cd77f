; Calls that inlining leaves (recursion, mutual recursion) call a forward
; derivative of the callee, one per activity pattern of the call's
; arguments: scaled with x active and c constant, and with c active and x
; constant, gets two (`.call` and `.call.2`), each calling itself, so the
; worklist terminates. They return {value, tangent}: they replace the call
; and do its work. ping -> pong -> ping: pong is inlined into ping's clone,
; whose call back to ping calls ping's derivative.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

; scaled(x, c, n) = n == 0 ? x : c * scaled(x, c, n - 1)
define double @scaled(double %x, double %c, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %more
more:
  %m = sub i32 %n, 1
  %r = call double @scaled(double %x, double %c, i32 %m)
  %p = fmul double %c, %r
  ret double %p
done:
  ret double %x
}

; Active x with a constant c, and the other way round.
define double @twice(double %x, double %c) {
  %a = call double @scaled(double %x, double %c, i32 3)
  %b = call double @scaled(double %c, double %x, i32 2)
  %s = fadd double %a, %b
  ret double %s
}

define double @ping(double %x, i32 %n) {
  %z = icmp sle i32 %n, 0
  br i1 %z, label %done, label %more
more:
  %m = sub i32 %n, 1
  %r = call double @pong(double %x, i32 %m)
  ret double %r
done:
  ret double %x
}
define double @pong(double %x, i32 %n) {
  %y = fmul double %x, %x
  %r = call double @ping(double %y, i32 %n)
  ret double %r
}

define double @call_twice(double %x, double %c) {
  %k = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @twice, double %x, double 1.0, i32 %k, double %c)
  ret double %g
}
define double @call_ping(double %x, i32 %n) {
  %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @ping, double %x, double 1.0, i32 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @twice.adjoint.fwd(double %x, double %x.tangent, double %c)
; CHECK:         call { double, double } @scaled.adjoint.fwd.call(double %x, double %x.tangent, double %c, i32 2)
; CHECK:         call { double, double } @scaled.adjoint.fwd.call.2(double %c, double %x, double %x.tangent, i32 1)

; CHECK-LABEL: define internal { double, double } @scaled.adjoint.fwd.call(double %x, double %x.tangent, double %c, i32 %n)
; CHECK:         ret { double, double }
; CHECK:         [[R:%.*]] = call { double, double } @scaled.adjoint.fwd.call(double %x, double %x.tangent, double %c, i32 %m)
; CHECK-NEXT:    %r1 = extractvalue { double, double } [[R]], 0
; CHECK-NEXT:    %r.tangent = extractvalue { double, double } [[R]], 1
; CHECK-NOT:     call double @scaled(

; CHECK-LABEL: define internal { double, double } @scaled.adjoint.fwd.call.2(double %x, double %c, double %c.tangent, i32 %n)
; CHECK:         call { double, double } @scaled.adjoint.fwd.call.2(double %x, double %c, double %c.tangent, i32 %m)

; CHECK-LABEL: define internal double @ping.adjoint.fwd(double %x, double %x.tangent, i32 %n)
; CHECK:         call { double, double } @ping.adjoint.fwd.call(double %y.i, double %y.i.tangent, i32 %m)
; CHECK-LABEL: define internal { double, double } @ping.adjoint.fwd.call(double %x, double %x.tangent, i32 %n)
; CHECK:         call { double, double } @ping.adjoint.fwd.call(double %y.i, double %y.i.tangent, i32 %m)
; CHECK-NOT:   define internal
