! For test/LTO/flang-prelink.c: a Fortran program that asks for the
! derivative of wobble, a C function of another file, and checks it against
! the closed form.
program main
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
  interface
    real(c_double) function autodiff(f, x) bind(C, name='__enzyme_autodiff')
      import :: c_double
      interface
        real(c_double) function f(x) bind(C)
          import :: c_double
          real(c_double), value :: x
        end function
      end interface
      real(c_double), value :: x
    end function
    real(c_double) function wobble(x) bind(C, name='wobble')
      import :: c_double
      real(c_double), value :: x
    end function
  end interface
  real(c_double) :: x, g, want
  x = 0.7d0
  g = autodiff(wobble, x)
  want = cos(x)*x*x + 2*x*sin(x)
  if (abs(g - want) > 1d-12*abs(want)) then
    print *, 'FAIL: d wobble/dx =', g, ', expected', want
    stop 1
  end if
end program
