; Shadow memory holds tangents. Next to each access through an active
; pointer, forward mode does the same on the shadow: a load loads the
; tangent, a store stores the tangent (zero for a constant), memset zeroes
; it, memcpy and memmove copy the shadow bytes whatever they hold (no type
; analysis needed, unlike the reverse). A heap block gets a zeroed shadow
; block, which realloc copies into a new block (freeing the old one) and
; free frees.
; RUN: %opt-adjoint -passes='adjoint<O0>' -S %s | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

define void @mem(ptr %in, ptr %out, i64 %n) {
  %a = alloca [4 x double]
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %in, i64 32, i1 false)
  %b = call ptr @malloc(i64 16)
  %x = load double, ptr %a
  %sq = fmul double %x, %x
  store double %sq, ptr %b
  %b2 = call ptr @realloc(ptr %b, i64 32)
  %y = load double, ptr %b2
  call void @llvm.memset.p0.i64(ptr %out, i8 0, i64 16, i1 false)
  store double %y, ptr %out
  store i64 0, ptr %in
  call void @free(ptr %b2)
  ret void
}

define void @copy(ptr %dst, ptr %src, i64 %n) {
  %x = load double, ptr %src
  %y = fmul double %x, 3.0
  store double %y, ptr %src
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  %z = getelementptr inbounds i8, ptr %dst, i64 8
  call void @llvm.memmove.p0.p0.i64(ptr %z, ptr %dst, i64 %n, i1 false)
  ret void
}

define void @call_copy(ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, i64 %n) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @copy, ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, i64 %n)
  ret void
}

define void @call_mem(ptr %in, ptr %din, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @mem, ptr %in, ptr %din, ptr %out, ptr %dout, i64 4)
  ret void
}

; CHECK-LABEL: define internal void @copy.adjoint.fwd(ptr %dst, ptr %dst.shadow, ptr %src, ptr %src.shadow, i64 %n)
; CHECK:         %x.tangent = load double, ptr %src.shadow, align 8
; CHECK:         %y.tangent = fmul double %x.tangent, 3.000000e+00
; CHECK:         store double %y, ptr %src, align 8
; CHECK-NEXT:    store double %y.tangent, ptr %src.shadow, align 8
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 1 %dst, ptr nonnull align 1 %src, i64 %n, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 1 %dst.shadow, ptr nonnull align 1 %src.shadow, i64 %n, i1 false)
; CHECK:         %z.shadow = getelementptr inbounds i8, ptr %dst.shadow, i64 8
; CHECK:         call void @llvm.memmove.p0.p0.i64(ptr nonnull align 1 %z, ptr align 1 %dst, i64 %n, i1 false)
; CHECK-NEXT:    call void @llvm.memmove.p0.p0.i64(ptr nonnull align 1 %z.shadow, ptr align 1 %dst.shadow, i64 %n, i1 false)

; CHECK-LABEL: define internal void @mem.adjoint.fwd(ptr %in, ptr %in.shadow, ptr %out, ptr %out.shadow, i64 %n)
; CHECK:         %b = call ptr @malloc(i64 16)
; CHECK-NEXT:    %b.shadow = call ptr @malloc(i64 16)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr {{.*}}%b.shadow, i8 0, i64 16, i1 false)
; CHECK:         store double %sq.tangent, ptr %b.shadow, align 8
; CHECK:         %b2 = call ptr @realloc(ptr nonnull %b, i64 32)
; CHECK-NEXT:    %b2.shadow = call ptr @calloc(i64 1, i64 32)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%b2.shadow, ptr {{.*}}%b.shadow, i64 16, i1 false)
; CHECK-NEXT:    call void @free(ptr nonnull %b.shadow)
; CHECK:         %y.tangent = load double, ptr %b2.shadow, align 8
; CHECK:         call void @llvm.memset.p0.i64(ptr {{.*}}%out, i8 0, i64 16, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr {{.*}}%out.shadow, i8 0, i64 16, i1 false)
; CHECK-NEXT:    store double %y, ptr %out, align 8
; CHECK-NEXT:    store double %y.tangent, ptr %out.shadow, align 8
; CHECK-NEXT:    store double 0.000000e+00, ptr %in, align 4
; CHECK-NEXT:    store double 0.000000e+00, ptr %in.shadow, align 4
; CHECK-NEXT:    call void @free(ptr nonnull %b2)
; CHECK-NEXT:    call void @free(ptr nonnull %b2.shadow)
; CHECK-NEXT:    ret void
