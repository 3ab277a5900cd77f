! Allocatable arrays in differentiated code: a local allocated with STAT=
! (the runtime's AllocatableSetBounds and AllocatableAllocate, models) and
! filled by whole-array assignments, which reallocate it to the shape of
! the right-hand side (the runtime's Assign, a model); an overlapping
! assignment (a = a(n:1:-1)); an array constructor of run-time size
! ([t, exp(x)]: the runtime's Init/PushArrayConstructor..., models);
! DEALLOCATE with STAT=; and an allocatable
! dummy argument that the function assigns to, allocated by the caller
! with the right shape, as is its shadow (which holds the seeds).
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O1 -module-dir %t.mod %s -o %t1
! RUN: %t1 | FileCheck %s
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! CHECK: locals ok
! CHECK-NEXT: output ok

module allocs
  use iso_c_binding
  implicit none

  interface
    subroutine autodiff_locals(f, x, dx, r, dr) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:), r, dr
    end subroutine
    ! y is allocatable: the descriptor's address, and the shadow's.
    subroutine autodiff_output(f, x, dx, y, dy) bind(C, name="__enzyme_autodiff_out")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:)
      real(c_double), allocatable :: y(:), dy(:)
    end subroutine
  end interface

contains

  subroutine locals(x, r)
    real(c_double), intent(in) :: x(:)
    real(c_double), intent(out) :: r
    real(c_double), allocatable :: t(:), u(:)
    integer :: status
    allocate(t(size(x)), stat=status)
    if (status /= 0) stop 'allocation failed'
    t = x * x                  ! same shape: no reallocation
    u = [t, exp(x)]            ! unallocated: allocated by the assignment
    u = u(size(u):1:-1)        ! both sides overlap
    u = u(1:size(x)) * 2       ! reallocated to a smaller shape
    r = sum(u * t) + u(1)
    deallocate(t, stat=status)
  end subroutine

  subroutine output(x, y)
    real(c_double), intent(in) :: x(:)
    real(c_double), allocatable, intent(inout) :: y(:)
    y = sin(x) * x
  end subroutine

  subroutine locals_value(x, r)
    real(c_double), intent(in) :: x(:)
    real(c_double), intent(out) :: r
    call locals(x, r)
  end subroutine
end module

program main
  use allocs
  implicit none
  integer, parameter :: n = 4
  real(c_double) :: x(n), dx(n), r, dr, g(n)
  real(c_double), allocatable :: y(:), dy(:)
  integer :: i

  x = [0.5d0, -0.25d0, 1.5d0, 0.75d0]
  ! u ends as 2 * exp(x(n:1:-1)), so r = sum(2 exp(x(n+1-i)) x(i)^2)
  ! + 2 exp(x(n)).
  dx = 0; dr = 1
  call autodiff_locals(c_funloc(locals), x, dx, r, dr)
  do i = 1, n
    g(i) = 4 * exp(x(n + 1 - i)) * x(i) + 2 * exp(x(i)) * x(n + 1 - i)**2
  end do
  g(n) = g(n) + 2 * exp(x(n))
  if (abs(r - (sum(2 * exp(x(n:1:-1)) * x**2) + 2 * exp(x(n)))) < 1d-12 .and. &
      maxval(abs(dx - g)) < 1d-12) then
    print *, 'locals ok'
  else
    print *, 'locals wrong:', r, dx, g
  end if

  allocate(y(n), dy(n))
  dx = 0
  dy = [1d0, 2d0, 3d0, 4d0]
  call autodiff_output(c_funloc(output), x, dx, y, dy)
  if (all(y == sin(x) * x) .and. all(dy == 0) .and. &
      maxval(abs(dx - [1d0, 2d0, 3d0, 4d0] * (cos(x) * x + sin(x)))) < 1d-12) &
    print *, 'output ok'
end program
