! Reductions that flang lowers to calls into its runtime (all of them at
! -O0; at -O2 those with masks, rank 2, DIM=, or NORM2, PRODUCT, MINVAL),
! which the plugin replaces by its models: SUM (with MASK), PRODUCT,
! MAXVAL, MINVAL (with MASK), NORM2, DOT_PRODUCT, in REAL(8) and REAL(4),
! SUM, PRODUCT, MAXVAL, MINVAL along a dimension (ranks 2 and 3), and
! MAXLOC, MINLOC (calls at -O0), MOD and MODULO of reals. Checks
! the gradients against their closed forms, and that the value computed
! inside the gradient is bit for bit the runtime's (Kahan summation in SUM,
! NORM2's scaling, double accumulation for REAL(4) DOT_PRODUCT).
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O0 -module-dir %t.mod %s -o %t0
! RUN: %t0 | FileCheck %s
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t2
! RUN: %t2 | FileCheck %s
! CHECK: real(8) value ok
! CHECK-NEXT: real(8) gradient ok
! CHECK-NEXT: real(4) value ok
! CHECK-NEXT: real(4) gradient ok
! CHECK-NEXT: empty mask ok
! CHECK-NEXT: dim value ok
! CHECK-NEXT: dim gradient ok
! CHECK-NEXT: picks ok

module reductions
  use iso_c_binding
  implicit none

  interface
    subroutine autodiff8(f, x, dx, m, dm, r, dr) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:), m(:, :), dm(:, :), r, dr
    end subroutine
    subroutine autodiff3(f, m, dm, c, dc, r, dr) bind(C, name="__enzyme_autodiff3")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: m(:, :), dm(:, :), c(:, :, :), dc(:, :, :), r, dr
    end subroutine
    subroutine autodiff4(f, x, dx, m, dm, r, dr) bind(C, name="__enzyme_autodiff4")
      import :: c_float, c_funptr
      type(c_funptr), value :: f
      real(c_float) :: x(:), dx(:), m(:, :), dm(:, :), r, dr
    end subroutine
  end interface

contains

  subroutine red8(x, m, r)
    real(c_double), intent(in) :: x(:), m(:, :)
    real(c_double), intent(out) :: r
    r = sum(x, mask=x > 0) + product(x) + maxval(m) + &
        minval(m, mask=m > 0) + norm2(m) + dot_product(x, m(:, 2)) + sum(m)
  end subroutine

  subroutine red4(x, m, r)
    real(c_float), intent(in) :: x(:), m(:, :)
    real(c_float), intent(out) :: r
    r = sum(x, mask=x > 0) + product(x) + maxval(m) + &
        minval(m, mask=m > 0) + norm2(m) + dot_product(x, m(:, 2)) + sum(m)
  end subroutine

  ! Along dimensions: the sums of the columns of m times the products of
  ! its rows, the largest of each column, the smallest of each
  ! row above -1/2, and the sums of a rank-3 array along its middle
  ! dimension.
  subroutine along(m, c, r)
    real(c_double), intent(in) :: m(:, :), c(:, :, :)
    real(c_double), intent(out) :: r
    r = dot_product(sum(m, dim=1), product(m(1:3, :), dim=1)) + &
        sum(maxval(m, dim=1)) + sum(minval(m, dim=2, mask=m > -0.5d0)) + &
        sum(sum(c, dim=2)**2)
  end subroutine

  ! Elements picked by MAXLOC and MINLOC (with MASK= and BACK=), and MOD
  ! and MODULO: d mod(a, p) = da - aint(a / p) dp.
  subroutine picks(x, m, r)
    real(c_double), intent(in) :: x(:), m(:, :)
    real(c_double), intent(out) :: r
    integer :: i(1), j(2), k(2)
    i = maxloc(x)
    j = minloc(m, mask=m > -0.5d0)
    k = maxloc(m, back=.true.)
    r = 3 * x(i(1)) + m(j(1), j(2)) * m(k(1), k(2)) + mod(x(1), 0.3d0) + &
        modulo(x(2), -0.7d0) * x(3)
  end subroutine

  ! No element selected: MAXVAL is -HUGE, and nothing has a derivative.
  subroutine nothing(x, m, r)
    real(c_double), intent(in) :: x(:), m(:, :)
    real(c_double), intent(out) :: r
    r = maxval(x, mask=x > 100) + sum(m, mask=m > 100)
  end subroutine
end module

program main
  use reductions
  implicit none
  integer, parameter :: n = 5
  real(c_double) :: x(n), dx(n), m(n, 3), dm(n, 3), r, dr, want, gx(n), gm(n, 3)
  real(c_float) :: x4(n), dx4(n), m4(n, 3), dm4(n, 3), r4, dr4, want4
  integer :: i, j, k, big(2), small(2)
  real(c_double) :: c(2, 3, 2), dc(2, 3, 2), gc(2, 3, 2), s(3), p(3)

  do i = 1, n
    x(i) = 0.4d0 * i - 1.1d0 + 0.01d0 * i * i
    do j = 1, 3
      m(i, j) = sin(1.3d0 * i + 0.7d0 * j)
    end do
  end do

  call red8(x, m, want)
  dx = 0; dm = 0; dr = 1
  call autodiff8(c_funloc(red8), x, dx, m, dm, r, dr)
  if (r == want .and. dr == 0) print *, 'real(8) value ok'
  ! The closed forms: d sum(x, x > 0) = [x > 0]; d product = product / x_i;
  ! MAXVAL and MINVAL send 1 to the element they pick; d norm2 = m / norm2;
  ! d dot_product = the other vector; d sum(m) = 1.
  gx = merge(1d0, 0d0, x > 0) + product(x) / x + m(:, 2)
  big = maxloc(m)
  small = minloc(m, mask=m > 0)
  gm = m / norm2(m) + 1
  gm(big(1), big(2)) = gm(big(1), big(2)) + 1
  gm(small(1), small(2)) = gm(small(1), small(2)) + 1
  gm(:, 2) = gm(:, 2) + x
  if (maxval(abs(dx - gx)) < 1d-13 .and. maxval(abs(dm - gm)) < 1d-13) then
    print *, 'real(8) gradient ok'
  else
    print *, 'real(8) gradient wrong:', dx, gx, dm, gm
  end if

  x4 = real(x, c_float)
  m4 = real(m, c_float)
  call red4(x4, m4, want4)
  dx4 = 0; dm4 = 0; dr4 = 1
  call autodiff4(c_funloc(red4), x4, dx4, m4, dm4, r4, dr4)
  if (r4 == want4) print *, 'real(4) value ok'
  if (maxval(abs(dx4 - real(gx, c_float))) < 1e-5 .and. &
      maxval(abs(dm4 - real(gm, c_float))) < 1e-5) print *, 'real(4) gradient ok'

  dx = 0; dm = 0; dr = 1
  call autodiff8(c_funloc(nothing), x, dx, m, dm, r, dr)
  if (r == -huge(r) .and. all(dx == 0) .and. all(dm == 0)) print *, 'empty mask ok'

  do k = 1, 2
    do j = 1, 3
      do i = 1, 2
        c(i, j, k) = cos(real(i + 2 * j + 5 * k, c_double))
      end do
    end do
  end do
  call along(m, c, want)
  dm = 0; dc = 0; dr = 1
  call autodiff3(c_funloc(along), m, dm, c, dc, r, dr)
  if (r == want) print *, 'dim value ok'
  ! d/dm(i,j) of s(j) p(j), s = column sums, p = products of m(1:3, j):
  ! p(j) + s(j) p(j) / m(i,j) for i <= 3; the largest of each column; the
  ! smallest above -1/2 of each row; 2 * sum(c(i,:,k)) for each c(i,j,k).
  s = sum(m, dim=1)
  p = product(m(1:3, :), dim=1)
  gm = spread(p, 1, n)
  gm(1:3, :) = gm(1:3, :) + spread(s * p, 1, 3) / m(1:3, :)
  do j = 1, 3
    i = maxloc(m(:, j), 1)
    gm(i, j) = gm(i, j) + 1
  end do
  do i = 1, n
    j = minloc(m(i, :), 1, mask=m(i, :) > -0.5d0)
    gm(i, j) = gm(i, j) + 1
  end do
  do k = 1, 2
    do i = 1, 2
      gc(i, :, k) = 2 * sum(c(i, :, k))
    end do
  end do
  if (maxval(abs(dm - gm)) < 1d-12 .and. maxval(abs(dc - gc)) < 1d-12) then
    print *, 'dim gradient ok'
  else
    print *, 'dim gradient wrong:', dm, gm, dc, gc
  end if

  call picks(x, m, want)
  dx = 0; dm = 0; dr = 1
  call autodiff8(c_funloc(picks), x, dx, m, dm, r, dr)
  big = maxloc(m, back=.true.)
  small = minloc(m, mask=m > -0.5d0)
  gx = 0
  i = maxloc(x, 1)
  gx(i) = 3
  gx(1) = gx(1) + 1
  gx(2) = gx(2) + x(3)
  gx(3) = gx(3) + modulo(x(2), -0.7d0)
  gm = 0
  gm(small(1), small(2)) = m(big(1), big(2))
  gm(big(1), big(2)) = gm(big(1), big(2)) + m(small(1), small(2))
  if (r == want .and. maxval(abs(dx - gx)) < 1d-12 .and. maxval(abs(dm - gm)) < 1d-12) then
    print *, 'picks ok'
  else
    print *, 'picks wrong:', r, want, dx, gx, dm, gm
  end if
end program
