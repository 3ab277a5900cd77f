! A Fortran function of explicit-shape arrays (do loops, elemental
! intrinsics, SUM, DOT_PRODUCT, MAXVAL, MINVAL, NORM2, PRODUCT, **) whose
! gradient a C program gets through a bind(C) wrapper that calls
! __enzyme_autodiff; the C driver compares it with finite differences.
! MINVAL, NORM2 and PRODUCT are calls into flang's runtime at -O2 (models).
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod -c %s -o %t.o
! RUN: %clang -O2 %S/Inputs/bindc-driver.c %t.o %fortran-runtime -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O1 -g -module-dir %t.mod -c %s -o %t1.o
! RUN: %clang -O2 %S/Inputs/bindc-driver.c %t1.o %fortran-runtime -o %t1
! RUN: %t1 | FileCheck %s
! CHECK: energy gradient ok
! CHECK: scaled gradient ok

module energies
  use iso_c_binding
  implicit none

  ! The C signature of __enzyme_autodiff for these two functions: the
  ! function's address, then its arguments, each array followed by its
  ! shadow (enzyme_dup by default for pointers), n constant (an integer).
  interface
    real(c_double) function autodiff_energy(f, n, x, dx) &
        bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: n
      real(c_double) :: x(*), dx(*)
    end function
    ! A second binding name containing __enzyme_autodiff: one Fortran
    ! interface per signature.
    real(c_double) function autodiff_scaled(f, n, x, dx, s) &
        bind(C, name="__enzyme_autodiff_scaled")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: n
      real(c_double) :: x(*), dx(*)
      real(c_double), value :: s
    end function
  end interface

contains

  real(c_double) function energy(n, x) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: t(n), s
    integer :: i
    s = 0
    do i = 1, n
      t(i) = sin(x(i)) * exp(0.5d0 * x(i)) + sqrt(1 + x(i)**2)
      s = s + log(2 + cos(x(i))) * abs(x(i) - 0.25d0)
    end do
    do i = 2, n
      s = s + max(x(i), x(i - 1)) * min(t(i), t(i - 1)) + x(i)**3 / 7
    end do
    energy = s + sum(t * t) + dot_product(x, t) + maxval(t) + minval(x) &
             + norm2(t) + product(1 + 0.1d0 * x)
  end function

  ! The gradient of energy, for C: returns energy's value, adds the
  ! gradient into dx.
  real(c_double) function energy_grad(n, x, dx) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(inout) :: dx(n)
    real(c_double) :: unused
    unused = autodiff_energy(c_funloc(energy), n, x, dx)
    energy_grad = energy(n, x)
  end function

  ! enzyme_out by default for a real passed by value: its gradient is the
  ! result of the call.
  real(c_double) function scaled(n, x, s) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), value :: s
    scaled = s * s * sum(x) + s * maxval(x)
  end function

  real(c_double) function scaled_grad(n, x, dx, s) bind(C)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(inout) :: dx(n)
    real(c_double), value :: s
    scaled_grad = autodiff_scaled(c_funloc(scaled), n, x, dx, s)
  end function
end module
