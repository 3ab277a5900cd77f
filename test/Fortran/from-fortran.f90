! Fortran calling __enzyme_autodiff itself, through interface blocks, with
! the activity markers declared as the C globals they are: explicit-shape
! arrays (passed as addresses), assumed-shape arrays (passed as
! descriptors, whose shadows are descriptors of the shadow arrays: dx(:) for
! x(:), dx(1:n:2) for x(1:n:2)), enzyme_const and enzyme_out. Gradients are
! checked against central differences computed here.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! CHECK: explicit ok
! CHECK-NEXT: const ok
! CHECK-NEXT: out ok
! CHECK-NEXT: assumed ok
! CHECK-NEXT: section ok

module objectives
  use iso_c_binding
  implicit none

  ! The markers: C globals that the plugin recognizes by name. Fortran
  ! defines them here (bind(C) variables of a module); their values do not
  ! matter.
  integer(c_int), bind(C, name="enzyme_dup") :: enzyme_dup
  integer(c_int), bind(C, name="enzyme_const") :: enzyme_const
  integer(c_int), bind(C, name="enzyme_out") :: enzyme_out

  interface
    ! Explicit-shape arrays: the address of the first element.
    subroutine autodiff_explicit(f, m1, n, m2, a, da, m3, x, dx, r, dr) &
        bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: m1, n, m2, m3
      real(c_double) :: a(*), da(*), x(*), dx(*), r, dr
    end subroutine
    ! The same function with `a` constant: no shadow after it.
    subroutine autodiff_const_a(f, m1, n, m2, a, m3, x, dx, r, dr) &
        bind(C, name="__enzyme_autodiff_const")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: m1, n, m2, m3
      real(c_double) :: a(*), x(*), dx(*), r, dr
    end subroutine
    ! A real passed by value (enzyme_out): its gradient is returned.
    real(c_double) function autodiff_out(f, m1, x, dx, m2, s) &
        bind(C, name="__enzyme_autodiff_out")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: m1, m2
      real(c_double) :: x(:), dx(:)
      real(c_double), value :: s
    end function
    ! Assumed-shape arrays: descriptors, the shadow's after the primal's.
    ! No enzyme_out argument: no result (a subroutine).
    subroutine autodiff_assumed(f, x, dx) &
        bind(C, name="__enzyme_autodiff_assumed")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:)
    end subroutine
  end interface

contains

  ! r = sum over i of (A x)_i^2 / 2 + exp(x_i / 4): r is written, not
  ! returned, so its shadow dr is the seed.
  subroutine quadratic(n, a, x, r) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: a(n, n), x(n)
    real(c_double), intent(out) :: r
    real(c_double) :: y(n)
    integer :: i, j
    do i = 1, n
      y(i) = 0
      do j = 1, n
        y(i) = y(i) + a(i, j) * x(j)
      end do
    end do
    r = 0.5d0 * dot_product(y, y) + sum(exp(x / 4))
  end subroutine

  real(c_double) function weighted(x, s)
    real(c_double), intent(in) :: x(:)
    real(c_double), value :: s
    weighted = s * sum(x**2) + sin(s) * maxval(x)
  end function

  real(c_double) function smooth(x)
    real(c_double), intent(in) :: x(:)
    integer :: i
    smooth = norm2(x) + minval(cos(x))
    do i = 1, size(x) - 1
      smooth = smooth + x(i) * x(i + 1)
    end do
  end function

  ! The largest difference between g and the central differences of f.
  real(c_double) function fd_error(f, x, g)
    interface
      real(c_double) function f(x)
        import :: c_double
        real(c_double), intent(in) :: x(:)
      end function
    end interface
    real(c_double), intent(in) :: x(:), g(:)
    real(c_double) :: xp(size(x)), h, d
    integer :: i
    fd_error = 0
    do i = 1, size(x)
      h = 1d-6 * max(1d0, abs(x(i)))
      xp = x
      xp(i) = x(i) + h
      d = f(xp)
      xp(i) = x(i) - h
      d = (d - f(xp)) / (2 * h)
      fd_error = max(fd_error, abs(d - g(i)) / max(1d0, abs(d)))
    end do
  end function
end module

program main
  use objectives
  implicit none
  integer, parameter :: n = 4
  real(c_double) :: a(n, n), da(n, n), x(n), dx(n), r, dr, ga(n, n)
  real(c_double) :: v(9), dv(9), s, ds, g
  integer :: i, j

  do j = 1, n
    do i = 1, n
      a(i, j) = 1 / real(i + j, c_double) + merge(1d0, 0d0, i == j)
    end do
    x(j) = 0.3d0 * j - 0.8d0
  end do

  ! d r / d A = y x^T, d r / d x = A^T y + exp(x/4)/4.
  da = 0; dx = 0; dr = 1
  call autodiff_explicit(c_funloc(quadratic), enzyme_const, n, enzyme_dup, &
                         a, da, enzyme_dup, x, dx, r, dr)
  do j = 1, n
    do i = 1, n
      ga(i, j) = dot_product(a(i, :), x) * x(j)
    end do
  end do
  if (maxval(abs(da - ga)) < 1d-12 .and. &
      maxval(abs(dx - (matmul(transpose(a), matmul(a, x)) + exp(x / 4) / 4))) < 1d-12 &
      .and. dr == 0) print *, 'explicit ok'

  dx = 0; dr = 2
  call autodiff_const_a(c_funloc(quadratic), enzyme_const, n, enzyme_const, &
                        a, enzyme_dup, x, dx, r, dr)
  if (maxval(abs(dx - 2 * (matmul(transpose(a), matmul(a, x)) + exp(x / 4) / 4))) < 1d-12) &
    print *, 'const ok'

  do i = 1, 9
    v(i) = sin(real(i, c_double)) + 0.1d0 * i
  end do
  s = 0.7d0
  dv = 0
  ds = autodiff_out(c_funloc(weighted), enzyme_dup, v, dv, enzyme_out, s)
  g = sum(v**2) + cos(s) * maxval(v)
  if (abs(ds - g) < 1d-12 .and. maxval(abs(dv - (2 * s * v + &
      merge(sin(s), 0d0, [(i == maxloc(v, 1), i = 1, 9)])))) < 1d-12) &
    print *, 'out ok'

  dv = 0
  call autodiff_assumed(c_funloc(smooth), v, dv)
  if (fd_error(smooth, v, dv) < 1d-7) print *, 'assumed ok'

  ! A strided section and the same section of the shadow: the gradient
  ! lands in dv(1), dv(3), ...; the other elements stay untouched.
  dv = -1
  dv(1:9:2) = 0
  call autodiff_assumed(c_funloc(smooth), v(1:9:2), dv(1:9:2))
  if (fd_error(smooth, v(1:9:2), dv(1:9:2)) < 1d-7 .and. all(dv(2:8:2) == -1)) &
    print *, 'section ok'
end program
