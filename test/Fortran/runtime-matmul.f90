! MATMUL, which flang lowers to calls into its runtime (MatmulReal8Real8,
! MatmulTransposeReal8Real8 for MATMUL(TRANSPOSE(A), B), the REAL(4)
! versions) with the result allocated by the runtime and copied out through
! the runtime's Assign: matrix * matrix, matrix * vector, vector * matrix,
! explicit- and assumed-shape. Checks the gradients against the closed
! forms (dA = dC B^T, dB = A^T dC), that the outputs' shadows are consumed,
! and that the products computed inside the gradient are the runtime's.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! CHECK: matrix-matrix ok
! CHECK-NEXT: transpose ok
! CHECK-NEXT: matrix-vector ok
! CHECK-NEXT: vector-matrix ok
! CHECK-NEXT: real(4) ok
! CHECK-NEXT: loss ok

module products
  use iso_c_binding
  implicit none

  interface
    subroutine autodiff_mm(f, n, a, da, b, db, c, dc) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: n
      real(c_double) :: a(*), da(*), b(*), db(*), c(*), dc(*)
    end subroutine
    subroutine autodiff_shaped(f, a, da, b, db, c, dc) bind(C, name="__enzyme_autodiff_shaped")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: a(:, :), da(:, :), b(:), db(:), c(:), dc(:)
    end subroutine
    subroutine autodiff_mm4(f, n, a, da, b, db, c, dc) bind(C, name="__enzyme_autodiff4")
      import :: c_float, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: n
      real(c_float) :: a(*), da(*), b(*), db(*), c(*), dc(*)
    end subroutine
    subroutine autodiff_loss(f, a, da, x, dx) bind(C, name="__enzyme_autodiff_loss")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: a(:, :), da(:, :), x(:), dx(:)
    end subroutine
  end interface

contains

  subroutine mm(n, a, b, c) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: a(n, n), b(n, n)
    real(c_double), intent(out) :: c(n, n)
    c = matmul(a, b)
  end subroutine

  subroutine tmm(n, a, b, c) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: a(n, n), b(n, n)
    real(c_double), intent(out) :: c(n, n)
    c = matmul(transpose(a), b)
  end subroutine

  subroutine mv(a, x, y)
    real(c_double), intent(in) :: a(:, :), x(:)
    real(c_double), intent(out) :: y(:)
    y = matmul(a, x)
  end subroutine

  subroutine vm(a, x, y)
    real(c_double), intent(in) :: a(:, :), x(:)
    real(c_double), intent(out) :: y(:)
    y = matmul(x, a)
  end subroutine

  subroutine mm4(n, a, b, c) bind(C)
    integer(c_int), value :: n
    real(c_float), intent(in) :: a(n, n), b(n, n)
    real(c_float), intent(out) :: c(n, n)
    c = matmul(a, b)
  end subroutine

  ! A scalar loss of a product: the result of MATMUL never reaches memory
  ! the caller sees.
  real(c_double) function loss(a, x)
    real(c_double), intent(in) :: a(:, :), x(:)
    loss = sum(tanh(matmul(a, x))**2)
  end function
end module

program main
  use products
  implicit none
  integer, parameter :: n = 3
  real(c_double) :: a(n, n), b(n, n), c(n, n), da(n, n), db(n, n), dc(n, n), w(n, n)
  real(c_double) :: x(n), dx(n), y(n), dy(n), v(n), h, d, err
  real(c_float) :: a4(n, n), b4(n, n), c4(n, n), da4(n, n), db4(n, n), dc4(n, n)
  integer :: i, j

  do j = 1, n
    do i = 1, n
      a(i, j) = cos(1.1d0 * i - 0.3d0 * j)
      b(i, j) = 0.5d0 * i - 0.2d0 * j * j
      w(i, j) = i + 10 * j
    end do
    x(j) = 0.9d0 - 0.4d0 * j
    v(j) = 2 - j
  end do

  ! The seed of C is W: d sum(W * C) / dA = W B^T, / dB = A^T W.
  da = 0; db = 0; dc = w
  call autodiff_mm(c_funloc(mm), n, a, da, b, db, c, dc)
  if (all(c == matmul(a, b)) .and. all(dc == 0) .and. &
      maxval(abs(da - matmul(w, transpose(b)))) < 1d-12 .and. &
      maxval(abs(db - matmul(transpose(a), w))) < 1d-12) print *, 'matrix-matrix ok'

  ! C = A^T B: dA = B W^T, dB = A W.
  da = 0; db = 0; dc = w
  call autodiff_mm(c_funloc(tmm), n, a, da, b, db, c, dc)
  if (all(c == matmul(transpose(a), b)) .and. &
      maxval(abs(da - matmul(b, transpose(w)))) < 1d-12 .and. &
      maxval(abs(db - matmul(a, w))) < 1d-12) print *, 'transpose ok'

  ! y = A x with seed v: dA = v x^T, dx = A^T v.
  da = 0; dx = 0; dy = v
  call autodiff_shaped(c_funloc(mv), a, da, x, dx, y, dy)
  if (all(y == matmul(a, x)) .and. all(dy == 0) .and. &
      maxval(abs(da - spread(v, 2, n) * spread(x, 1, n))) < 1d-12 .and. &
      maxval(abs(dx - matmul(transpose(a), v))) < 1d-12) print *, 'matrix-vector ok'

  ! y = x^T A: dA = x v^T, dx = A v.
  da = 0; dx = 0; dy = v
  call autodiff_shaped(c_funloc(vm), a, da, x, dx, y, dy)
  if (all(y == matmul(x, a)) .and. &
      maxval(abs(da - spread(x, 2, n) * spread(v, 1, n))) < 1d-12 .and. &
      maxval(abs(dx - matmul(a, v))) < 1d-12) print *, 'vector-matrix ok'

  a4 = real(a, c_float); b4 = real(b, c_float)
  da4 = 0; db4 = 0; dc4 = real(w, c_float)
  call autodiff_mm4(c_funloc(mm4), n, a4, da4, b4, db4, c4, dc4)
  if (all(c4 == matmul(a4, b4)) .and. &
      maxval(abs(da4 - matmul(real(w, c_float), transpose(b4)))) < 1e-4 .and. &
      maxval(abs(db4 - matmul(transpose(a4), real(w, c_float)))) < 1e-4) print *, 'real(4) ok'

  ! Against central differences, in every element of A and x.
  da = 0; dx = 0
  call autodiff_loss(c_funloc(loss), a, da, x, dx)
  err = 0
  h = 1d-6
  do j = 1, n
    do i = 1, n
      b = a; b(i, j) = a(i, j) + h; d = loss(b, x)
      b(i, j) = a(i, j) - h; d = (d - loss(b, x)) / (2 * h)
      err = max(err, abs(d - da(i, j)))
    end do
    y = x; y(j) = x(j) + h; d = loss(a, y)
    y(j) = x(j) - h; d = (d - loss(a, y)) / (2 * h)
    err = max(err, abs(d - dx(j)))
  end do
  if (err < 1d-8) print *, 'loss ok'
end program
