; Library models: a call of a Fortran runtime function that has a model
; (SUM of a descriptor, MATMUL into an allocated result, both as flang
; declares them, MATMUL returning `{}`) is redirected, in the clone, to the
; model, which is inlined and differentiated like the program's own code.
; The program's own calls keep calling the runtime, and no model is left in
; the module afterwards.
; RUN: %opt-adjoint -passes=adjoint -S %s | FileCheck %s

%desc1 = type { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }
%desc2 = type { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }

@file = private constant [6 x i8] c"f.f90\00"

declare double @_FortranASumReal8(ptr, ptr, i32, i32, ptr)
declare {} @_FortranAMatmulReal8Real8(ptr, ptr, ptr, ptr, i32)
declare void @free(ptr)
declare void @__enzyme_autodiff(ptr, ...)

; A rank-1 descriptor of %n doubles at %base.
define void @describe(ptr %d, ptr %base, i64 %n) {
  store ptr %base, ptr %d
  %len = getelementptr i8, ptr %d, i64 8
  store i64 8, ptr %len
  %version = getelementptr i8, ptr %d, i64 16
  store i32 20180515, ptr %version
  %rank = getelementptr i8, ptr %d, i64 20
  store i8 1, ptr %rank
  %type = getelementptr i8, ptr %d, i64 21
  store i8 28, ptr %type
  %attribute = getelementptr i8, ptr %d, i64 22
  store i8 0, ptr %attribute
  %extra = getelementptr i8, ptr %d, i64 23
  store i8 0, ptr %extra
  %lower = getelementptr i8, ptr %d, i64 24
  store i64 1, ptr %lower
  %extent = getelementptr i8, ptr %d, i64 32
  store i64 %n, ptr %extent
  %sm = getelementptr i8, ptr %d, i64 40
  store i64 8, ptr %sm
  ret void
}

; sum(x(1:n))
define double @total(ptr %x, i64 %n) {
  %d = alloca %desc1
  call void @describe(ptr %d, ptr %x, i64 %n)
  %s = call double @_FortranASumReal8(ptr %d, ptr @file, i32 3, i32 0, ptr null)
  ret double %s
}

; matmul(a, x) for a 1 x n matrix a and an n-vector x: the result, one
; element, allocated by the runtime and freed by the caller.
define double @product(ptr %a, ptr %x, i64 %n) {
  %ad = alloca %desc2
  %xd = alloca %desc1
  %rd = alloca %desc1
  store ptr %a, ptr %ad
  %alen = getelementptr i8, ptr %ad, i64 8
  store i64 8, ptr %alen
  %arank = getelementptr i8, ptr %ad, i64 20
  store i8 2, ptr %arank
  %atype = getelementptr i8, ptr %ad, i64 21
  store i8 28, ptr %atype
  %aext0 = getelementptr i8, ptr %ad, i64 32
  store i64 1, ptr %aext0
  %asm0 = getelementptr i8, ptr %ad, i64 40
  store i64 8, ptr %asm0
  %aext1 = getelementptr i8, ptr %ad, i64 56
  store i64 %n, ptr %aext1
  %asm1 = getelementptr i8, ptr %ad, i64 64
  store i64 8, ptr %asm1
  call void @describe(ptr %xd, ptr %x, i64 %n)
  store ptr null, ptr %rd
  %rrank = getelementptr i8, ptr %rd, i64 20
  store i8 1, ptr %rrank
  %unused = call {} @_FortranAMatmulReal8Real8(ptr %rd, ptr %ad, ptr %xd, ptr @file, i32 9)
  %r = load ptr, ptr %rd
  %v = load double, ptr %r
  call void @free(ptr %r)
  ret double %v
}

define void @grad_total(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @total, ptr %x, ptr %dx, i64 %n)
  ret void
}

define void @grad_product(ptr %a, ptr %da, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @product, ptr %a, ptr %da, ptr %x, ptr %dx, i64 %n)
  ret void
}

; The program's own calls stay.
; CHECK-LABEL: define double @total(
; CHECK: call double @_FortranASumReal8(
; CHECK-LABEL: define double @product(
; CHECK: call {} @_FortranAMatmulReal8Real8(

; The gradients call neither the runtime nor a model.
; CHECK-LABEL: define internal void @total.adjoint.grad(
; CHECK-NOT: call {{.*}}@_Fortran
; CHECK-NOT: call {{.*}}@__adjoint_model
; CHECK: ret void
; CHECK-LABEL: define internal void @product.adjoint.grad(
; CHECK-NOT: call {{.*}}@_Fortran
; CHECK-NOT: call {{.*}}@__adjoint_model
; CHECK: ret void

; No model is left.
; CHECK-NOT: define {{.*}}@__adjoint_model
