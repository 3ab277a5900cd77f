! PRINT and WRITE inside a differentiated function only print (flang's
! _FortranAioOutput* calls): the gradient prints what the function prints.
! A STOP or ERROR STOP on a path that never returns needs no derivative.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod %s -o %t
! RUN: %t | FileCheck %s
! CHECK: f at 1.5 with 3 values
! CHECK-NEXT: sum 10.5
! CHECK-NEXT: gradient ok

module printing
  use iso_c_binding
  implicit none

  interface
    real(c_double) function autodiff(f, x) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double), value :: x
    end function
  end interface

contains

  real(c_double) function f(x) bind(C)
    real(c_double), value :: x
    real(c_double) :: v(3)
    v = [x, 2 * x, 4 * x]
    if (x > 100) then
      print *, 'x too large:', x, v
      stop 1
    end if
    if (x < -100) error stop 'x too small'
    write (*, '(a, f4.1, a, i2, a)') 'f at ', x, ' with', size(v), ' values'
    write (*, '(a, f5.1)') 'sum ', sum(v)
    f = sum(v * v)
  end function
end module

program main
  use printing
  implicit none
  real(c_double) :: g
  g = autodiff(c_funloc(f), 1.5d0)
  ! d/dx (x^2 + 4x^2 + 16x^2) = 42x
  if (abs(g - 42 * 1.5d0) < 1d-12) print *, 'gradient ok'
end program
