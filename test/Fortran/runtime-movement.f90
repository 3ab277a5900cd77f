! Intrinsics that only move data, which flang lowers to calls into its
! runtime: SPREAD, RESHAPE (without PAD= and ORDER=), CSHIFT of a vector,
! TRANSPOSE (a call at -O0), and assignments and array constructors of
! COMPLEX arrays. Checks gradients against central differences and the
! values computed inside the gradient against the runtime's.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! CHECK: value ok
! CHECK-NEXT: gradient ok

module movement
  use iso_c_binding
  implicit none

  interface
    subroutine autodiff(f, x, dx, r, dr) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:), r, dr
    end subroutine
  end interface

contains

  subroutine moved(x, r)
    real(c_double), intent(in) :: x(:)
    real(c_double), intent(out) :: r
    real(c_double) :: m(2, 3), w(3)
    complex(c_double_complex), allocatable :: z(:)
    integer :: i
    m = reshape(x(1:6), [2, 3])
    w = [(real(i, c_double), i = 1, 3)]
    z = [(cmplx(x(i), x(i + 1), c_double_complex), i = 1, 3)]
    z = z * z
    r = sum(spread(x(1:3), 2, 2) * 1.5d0) + sum(matmul(transpose(m), m)) + &
        dot_product(cshift(x(1:3), 1), w) + sum(cshift(x(4:6), -1) * w) + &
        sum(real(z) * aimag(z))
  end subroutine
end module

program main
  use movement
  implicit none
  real(c_double) :: x(6), dx(6), xp(6), r, dr, want, up, down, h, err
  integer :: i

  x = [0.3d0, -0.7d0, 1.1d0, 0.4d0, -1.3d0, 0.9d0]
  call moved(x, want)
  dx = 0; dr = 1
  call autodiff(c_funloc(moved), x, dx, r, dr)
  if (r == want) print *, 'value ok'
  err = 0
  h = 1d-6
  do i = 1, 6
    xp = x; xp(i) = x(i) + h
    call moved(xp, up)
    xp(i) = x(i) - h
    call moved(xp, down)
    err = max(err, abs((up - down) / (2 * h) - dx(i)))
  end do
  if (err < 1d-8) then
    print *, 'gradient ok'
  else
    print *, 'gradient wrong:', dx, err
  end if
end program
