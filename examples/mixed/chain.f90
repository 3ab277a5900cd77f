! The energy of a chain of n unit masses joined by springs of rest length
! 1.2 (each spring's length is measured in the plane, one unit apart
! vertically), with an exponential wall at the left end. C calls it through
! bind(C); its gradient is computed at link time.
function chain_energy(x, n) bind(C, name="chain_energy") result(e)
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double) :: e
  integer :: i

  e = exp(-x(1))
  do i = 1, n - 1
    e = e + 0.5d0 * (sqrt((x(i + 1) - x(i))**2 + 1d0) - 1.2d0)**2
  end do
end function chain_energy
