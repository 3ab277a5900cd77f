! Forward mode from Fortran (__enzyme_fwddiff): the same markers and
! descriptors as reverse mode; shadows hold tangents. Through the models
! of MATMUL, NORM2, MINVAL and the reallocating assignment. Checked
! against central differences along the tangent.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O1 -module-dir %t.mod %s -o %t1
! RUN: %t1 | FileCheck %s
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! CHECK: explicit tangent ok
! CHECK-NEXT: assumed tangent ok

module tangents
  use iso_c_binding
  implicit none

  integer(c_int), bind(C, name="enzyme_dup") :: enzyme_dup
  integer(c_int), bind(C, name="enzyme_const") :: enzyme_const

  interface
    real(c_double) function fwddiff(f, m1, n, m2, a, da, b, db) &
        bind(C, name="__enzyme_fwddiff")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: m1, n, m2
      real(c_double) :: a(*), da(*), b(*), db(*)
    end function
    real(c_double) function fwddiff_assumed(f, x, dx) &
        bind(C, name="__enzyme_fwddiff_assumed")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:)
    end function
  end interface

contains

  real(c_double) function fm(n, a, b) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: a(n, n), b(n)
    fm = norm2(matmul(a, b)) + minval(b) * maxval(a)
  end function

  real(c_double) function spread_out(x)
    real(c_double), intent(in) :: x(:)
    real(c_double), allocatable :: t(:)
    t = exp(x) - x
    spread_out = norm2(t) + product(1 + x / 10)
  end function
end module

program main
  use tangents
  implicit none
  integer, parameter :: n = 3
  real(c_double) :: a(n, n), da(n, n), b(n), db(n), t, d, h
  real(c_double) :: x(5), dx(5)
  integer :: i, j

  do j = 1, n
    do i = 1, n
      a(i, j) = 1 / real(i + j, c_double)
      da(i, j) = sin(real(i * j, c_double))
    end do
    b(j) = 0.5d0 * j - 0.7d0
    db(j) = cos(real(j, c_double))
  end do
  h = 1d-6
  t = fwddiff(c_funloc(fm), enzyme_const, n, enzyme_dup, a, da, b, db)
  d = (fm(n, a + h * da, b + h * db) - fm(n, a - h * da, b - h * db)) / (2 * h)
  if (abs(t - d) < 1d-7) print *, 'explicit tangent ok'

  x = [0.1d0, -0.4d0, 0.8d0, 1.2d0, -1.5d0]
  dx = [1d0, 0.5d0, -0.25d0, 2d0, 0.1d0]
  t = fwddiff_assumed(c_funloc(spread_out), x, dx)
  d = (spread_out(x + h * dx) - spread_out(x - h * dx)) / (2 * h)
  if (abs(t - d) < 1d-7) print *, 'assumed tangent ok'
end program
