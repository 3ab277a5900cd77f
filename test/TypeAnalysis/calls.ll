; Calls to defined functions are analyzed with the trees the caller has of
; the arguments (one summary per function and pattern), and what the callee
; learns comes back: through returned pointers, through recursion (iterated
; to a fixed point), through mutual recursion. Declarations without a known
; signature contribute nothing beyond their IR types.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

define double @get(ptr %p, i64 %i) {
  %e = getelementptr inbounds double, ptr %p, i64 %i
  %x = load double, ptr %e
  ret double %x
}

define ptr @id(ptr %q) {
  ret ptr %q
}

define double @caller(ptr %a, ptr %b) {
  %x = call double @get(ptr %a, i64 3)
  %c = call ptr @id(ptr %b)
  %y = load float, ptr %c
  %yd = fpext float %y to double
  %r = fadd double %x, %yd
  ret double %r
}

; CHECK-LABEL: types of 'get':
; CHECK-NEXT:    arg %p: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %i: {[0..7]:Integer}
; CHECK-LABEL: types of 'id':
; CHECK-NEXT:    arg %q: {[]:Pointer}
; CHECK-NEXT:    return: {[]:Pointer}
; CHECK-LABEL: types of 'caller':
; CHECK-NEXT:    arg %a: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %b: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %x = call: {[]:Double}
; CHECK-NEXT:    %c = call: {[]:Pointer, [0]:Float}

; sum(p, n) = n ? *p + sum(p + 1, n - 1) : 0 walks an array like a loop.
define double @sum(ptr %p, i64 %n) {
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %done, label %step
step:
  %x = load double, ptr %p
  %q = getelementptr inbounds double, ptr %p, i64 1
  %n1 = sub i64 %n, 1
  %s = call double @sum(ptr %q, i64 %n1)
  %r = fadd double %x, %s
  ret double %r
done:
  ret double 0.0
}

; CHECK-LABEL: types of 'sum':
; CHECK-NEXT:    arg %p: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    arg %n: {}
; CHECK-NEXT:    %c = icmp: {[0]:Integer}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    %q = getelementptr: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %n1 = sub: {}
; CHECK-NEXT:    %s = call: {[]:Double}
; CHECK-NEXT:    %r = fadd: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}
; CHECK-NOT:     incomplete

; @even reads a double at 0, @odd a float at 8; each sees both.
define double @even(ptr %p, i64 %n) {
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %base, label %rec
base:
  %x = load double, ptr %p
  ret double %x
rec:
  %n1 = sub i64 %n, 1
  %r = call double @odd(ptr %p, i64 %n1)
  ret double %r
}

define double @odd(ptr %p, i64 %n) {
  %f.p = getelementptr inbounds i8, ptr %p, i64 8
  %f = load float, ptr %f.p
  %n1 = sub i64 %n, 1
  %r = call double @even(ptr %p, i64 %n1)
  ret double %r
}

; CHECK-LABEL: types of 'even':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Double, [8]:Float}
; CHECK:         %r = call: {[]:Double}
; CHECK-LABEL: types of 'odd':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Double, [8]:Float}
; CHECK:         %f.p = getelementptr: {[]:Pointer, [0]:Float}

; A malloc wrapper: the caller's stores type the memory the callee
; returns.
define ptr @alloc(i64 %n) {
  %bytes = shl i64 %n, 3
  %p = call ptr @malloc(i64 %bytes)
  ret ptr %p
}

define double @use_alloc(i64 %n, double %v) {
  %p = call ptr @alloc(i64 %n)
  store double %v, ptr %p
  %x = load double, ptr %p
  ret double %x
}

; CHECK-LABEL: types of 'alloc':
; CHECK-NEXT:    arg %n: {}
; CHECK-NEXT:    %bytes = shl: {[0..7]:Integer}
; CHECK-NEXT:    %p = call: {[]:Pointer}
; CHECK-NEXT:    return: {[]:Pointer}
; CHECK-LABEL: types of 'use_alloc':
; CHECK-NEXT:    arg %n: {}
; CHECK-NEXT:    arg %v: {[]:Double}
; CHECK-NEXT:    %p = call: {[]:Pointer, [0]:Double}

; An unknown external function: only IR types.
define double @external(ptr %p) {
  %r = call double @ext(ptr %p)
  ret double %r
}

; CHECK-LABEL: types of 'external':
; CHECK-NEXT:    arg %p: {[]:Pointer}
; CHECK-NEXT:    %r = call: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

declare ptr @malloc(i64)
declare double @ext(ptr)
