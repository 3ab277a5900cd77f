; Unions: bytes that uses read as different types are Anything, only where
; the members overlap. The value read through a member keeps the type its
; IR type states: the conflict stays in the memory.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

; union { double d; long l; }
define double @double_long(ptr %p) {
  %d = load double, ptr %p
  %l = load i64, ptr %p
  %m = mul i64 %l, 3
  %c = sitofp i64 %m to double
  %r = fadd double %d, %c
  ret double %r
}

; CHECK-LABEL: types of 'double_long':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Anything, [1..7]:Integer}
; CHECK-NEXT:    %d = load: {[]:Double}
; CHECK-NEXT:    %l = load: {[0]:Anything, [1..7]:Integer}
; CHECK-NEXT:    %m = mul: {[0..7]:Integer}
; CHECK-NEXT:    %c = sitofp: {[]:Double}
; CHECK-NEXT:    %r = fadd: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; union { double d; float f[2]; }: f[1] starts inside d. The tree keeps both
; (different offsets); byte queries report bytes 4..7 as Anything.
define float @double_floats(ptr %p) {
  %d = load double, ptr %p
  %f1.p = getelementptr inbounds i8, ptr %p, i64 4
  %f1 = load float, ptr %f1.p
  %t = fptrunc double %d to float
  %r = fadd float %t, %f1
  ret float %r
}

; CHECK-LABEL: types of 'double_floats':
; CHECK-NEXT:    arg %p: {[]:Pointer, [0]:Double, [4]:Float}
; CHECK-NEXT:    %d = load: {[]:Double}
; CHECK-NEXT:    %f1.p = getelementptr: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %f1 = load: {[]:Float}
; CHECK-NEXT:    %t = fptrunc: {[]:Float}
; CHECK-NEXT:    %r = fadd: {[]:Float}
; CHECK-NEXT:    return: {[]:Float}

; An array of union { float f; int i; } indexed by a variable: every element
; conflicts, the whole array is Anything.
define float @union_array(ptr %a, i64 %k) {
  %e = getelementptr inbounds i32, ptr %a, i64 %k
  %f = load float, ptr %e
  %i = load i32, ptr %e
  %i2 = mul i32 %i, 2
  ret float %f
}

; CHECK-LABEL: types of 'union_array':
; CHECK-NEXT:    arg %a: {[]:Pointer, [4n]:Anything, [4n+1..3]:Integer}
; CHECK-NEXT:    arg %k: {[0..7]:Integer}
; CHECK-NEXT:    %e = getelementptr: {[]:Pointer, [4n]:Anything, [4n+1..3]:Integer}
; CHECK-NEXT:    %f = load: {[]:Float}
; CHECK-NEXT:    %i = load: {[0]:Anything, [1..3]:Integer}
; CHECK-NEXT:    %i2 = mul: {[0..3]:Integer}
; CHECK-NEXT:    return: {[]:Float}
