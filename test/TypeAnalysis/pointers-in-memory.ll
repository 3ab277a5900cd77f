; Pointers stored in memory carry what they point to: the memory's tree has
; the stored pointer at [k] and its pointee at [k, ...], and a pointer loaded
; back from there gets it again.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

; struct { double *data; long n; } *s; s->data = buf; ... s->data[s->n - 1]
define double @field(ptr %s, ptr %buf) {
  store ptr %buf, ptr %s
  %n.p = getelementptr inbounds i8, ptr %s, i64 8
  %n = load i64, ptr %n.p
  %last = add i64 %n, -1
  %data = load ptr, ptr %s
  %e = getelementptr inbounds double, ptr %data, i64 %last
  %x = load double, ptr %e
  ret double %x
}

; CHECK-LABEL: types of 'field':
; CHECK-NEXT:    arg %s: {[]:Pointer, [0]:Pointer, [0, 8n]:Double, [8..15]:Integer}
; CHECK-NEXT:    arg %buf: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %n.p = getelementptr: {[]:Pointer, [0..7]:Integer}
; CHECK-NEXT:    %n = load: {[0..7]:Integer}
; CHECK-NEXT:    %last = add: {[0..7]:Integer}
; CHECK-NEXT:    %data = load: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %e = getelementptr: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; double *rows[]: rows[i][j].
define double @rows(ptr %rows, i64 %i, i64 %j) {
  %r.p = getelementptr inbounds ptr, ptr %rows, i64 %i
  %r = load ptr, ptr %r.p
  %x.p = getelementptr inbounds double, ptr %r, i64 %j
  %x = load double, ptr %x.p
  ret double %x
}

; CHECK-LABEL: types of 'rows':
; CHECK-NEXT:    arg %rows: {[]:Pointer, [8n]:Pointer, [8n, 8n]:Double}
; CHECK-NEXT:    arg %i: {[0..7]:Integer}
; CHECK-NEXT:    arg %j: {[0..7]:Integer}
; CHECK-NEXT:    %r.p = getelementptr: {[]:Pointer, [8n]:Pointer, [8n, 8n]:Double}
; CHECK-NEXT:    %r = load: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %x.p = getelementptr: {[]:Pointer, [8n]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; A pointer kept as an integer (ptrtoint, add, inttoptr) still points to
; the same memory, 8 bytes further.
define double @through_int(ptr %p) {
  %i = ptrtoint ptr %p to i64
  %j = add i64 %i, 8
  %q = inttoptr i64 %j to ptr
  %x = load double, ptr %q
  ret double %x
}

; CHECK-LABEL: types of 'through_int':
; CHECK-NEXT:    arg %p: {[]:Pointer, [8]:Double}
; CHECK-NEXT:    %i = ptrtoint: {[0]:Pointer, [0, 8]:Double}
; CHECK-NEXT:    %j = add: {[0]:Pointer, [0, 0]:Double}
; CHECK-NEXT:    %q = inttoptr: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

; A pointer copied as an i64 (a struct copy): the pointer and its pointee
; travel with the bytes.
define double @copied_pointer(ptr %dst, ptr %src) {
  %v = load i64, ptr %src
  store i64 %v, ptr %dst
  %q = load ptr, ptr %dst
  %x = load double, ptr %q
  ret double %x
}

; CHECK-LABEL: types of 'copied_pointer':
; CHECK-NEXT:    arg %dst: {[]:Pointer, [0]:Pointer, [0, 0]:Double}
; CHECK-NEXT:    arg %src: {[]:Pointer, [0]:Pointer, [0, 0]:Double}
; CHECK-NEXT:    %v = load: {[0]:Pointer, [0, 0]:Double}
; CHECK-NEXT:    %q = load: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %x = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}
