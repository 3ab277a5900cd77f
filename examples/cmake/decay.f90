! The CMake example's Fortran program: the sensitivity of an explicit Euler
! integration of x' = -k x to the rate k. Adjoint differentiates the
! bind(C) function `decay` from the call to __enzyme_autodiff below, which
! an interface block declares with the arguments this call passes. The
! program compares the derivative with central finite differences and with
! the exact derivative of the Euler scheme; it stops with status 1 if
! either disagrees.
module decay_model
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer(c_int), parameter :: steps = 50
  real(c_double), parameter :: x0 = 2.0_c_double, dt = 0.05_c_double
contains
  ! x after `steps` Euler steps from x0, with rate k.
  function decay(k) bind(C, name="decay") result(x)
    real(c_double), value :: k
    real(c_double) :: x
    integer :: i
    x = x0
    do i = 1, steps
      x = x - dt * k * x
    end do
  end function decay
end module decay_model

program sensitivity
  use iso_c_binding, only: c_double, c_funloc, c_funptr
  use decay_model
  implicit none
  interface
    ! The gradient of f with respect to its one real argument.
    function autodiff(f, k) bind(C, name="__enzyme_autodiff") result(dk)
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double), value :: k
      real(c_double) :: dk
    end function autodiff
  end interface
  real(c_double), parameter :: k = 0.8_c_double, h = 1e-6_c_double
  real(c_double) :: dk, fd, exact

  dk = autodiff(c_funloc(decay), k)
  fd = (decay(k + h) - decay(k - h)) / (2 * h)
  ! x = x0 (1 - dt k)^steps
  exact = -x0 * steps * dt * (1 - dt * k)**(steps - 1)
  print '(a, f14.10, a, f14.10, a, f14.10)', 'd x / d k = ', dk, &
    '  finite difference ', fd, '  exact ', exact
  if (abs(dk - fd) > 1e-6_c_double * (1 + abs(fd)) .or. &
      abs(dk - exact) > 1e-12_c_double * (1 + abs(exact))) then
    print '(a)', 'WRONG'
    stop 1
  end if
end program sensitivity
