; A struct with fields of mixed types: each field's own access says what it
; holds, constant GEPs move those facts between the struct and its fields,
; and padding stays unknown. A struct holding a pointer to another struct
; types both levels; a struct-typed alloca states its float fields.
; RUN: %opt-adjoint -passes='print<adjoint-types>' -disable-output %s | FileCheck %s

%struct.Item = type { i32, [3 x double], float }
%struct.Outer = type { ptr, i64 }

define double @fields(ptr %it) {
  %id = load i32, ptr %it
  %idm = mul i32 %id, 5
  %w1.p = getelementptr inbounds %struct.Item, ptr %it, i64 0, i32 1, i64 1
  %w1 = load double, ptr %w1.p
  %s.p = getelementptr inbounds %struct.Item, ptr %it, i64 0, i32 2
  %s = load float, ptr %s.p
  %sd = fpext float %s to double
  %r = fmul double %w1, %sd
  ret double %r
}

; CHECK-LABEL: types of 'fields':
; CHECK-NEXT:    arg %it: {[]:Pointer, [0..3]:Integer, [16]:Double, [32]:Float}
; CHECK-NEXT:    %id = load: {[0..3]:Integer}
; CHECK-NEXT:    %idm = mul: {[0..3]:Integer}
; CHECK-NEXT:    %w1.p = getelementptr: {[]:Pointer, [0]:Double, [16]:Float}
; CHECK-NEXT:    %w1 = load: {[]:Double}
; CHECK-NEXT:    %s.p = getelementptr: {[]:Pointer, [0]:Float}
; CHECK-NEXT:    %s = load: {[]:Float}
; CHECK-NEXT:    %sd = fpext: {[]:Double}
; CHECK-NEXT:    %r = fmul: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

define double @nested(ptr %o) {
  %inner = load ptr, ptr %o
  %n.p = getelementptr inbounds %struct.Outer, ptr %o, i64 0, i32 1
  %n = load i64, ptr %n.p
  %k = udiv i64 %n, 2
  %w.p = getelementptr inbounds %struct.Item, ptr %inner, i64 0, i32 1, i64 2
  %w = load double, ptr %w.p
  ret double %w
}

; CHECK-LABEL: types of 'nested':
; CHECK-NEXT:    arg %o: {[]:Pointer, [0]:Pointer, [0, 24]:Double, [8..15]:Integer}
; CHECK-NEXT:    %inner = load: {[]:Pointer, [24]:Double}
; CHECK-NEXT:    %n.p = getelementptr: {[]:Pointer, [0..7]:Integer}
; CHECK-NEXT:    %n = load: {[0..7]:Integer}
; CHECK-NEXT:    %k = udiv: {[0..7]:Integer}
; CHECK-NEXT:    %w.p = getelementptr: {[]:Pointer, [0]:Double}
; CHECK-NEXT:    %w = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}

define double @local(double %x) {
  %a = alloca %struct.Item
  %w.p = getelementptr inbounds i8, ptr %a, i64 8
  store double %x, ptr %w.p
  %v = load double, ptr %w.p
  ret double %v
}

; A stack object of a C struct type: its i32 field and its padding (bytes
; 4..7 after the int, 36..39 after the float) hold no derivative, so they
; are Integer; the doubles and the float come from the field types.
; CHECK-LABEL: types of 'local':
; CHECK-NEXT:    arg %x: {[]:Double}
; CHECK-NEXT:    %a = alloca: {[]:Pointer, [0..7]:Integer, [8]:Double, [16]:Double, [24]:Double, [32]:Float, [36..39]:Integer}
; CHECK-NEXT:    %w.p = getelementptr: {[]:Pointer, [0]:Double, [8]:Double, [16]:Double, [24]:Float, [28..31]:Integer}
; CHECK-NEXT:    %v = load: {[]:Double}
; CHECK-NEXT:    return: {[]:Double}
