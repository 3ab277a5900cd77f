! Assumed-shape arrays of a bind(C) procedure are C descriptors
! (ISO_Fortran_binding.h's CFI_cdesc_t, which is flang's descriptor). A C
! program describes its arrays with CFI_establish and CFI_section and
! passes, for the shadow, a descriptor of the same shape over the shadow
! array. Checked from C against finite differences, for a whole array and
! for a strided section.
! RUN: mkdir -p %t.mod
! RUN: %flang-adjoint -O2 -module-dir %t.mod -c %s -o %t.o
! RUN: %clang -O2 %S/Inputs/cfi-driver.c %t.o %fortran-runtime -o %t
! RUN: %t | FileCheck %s
! CHECK: whole array ok
! CHECK-NEXT: section ok

module cfi
  use iso_c_binding
  implicit none

  interface
    subroutine autodiff(f, x, dx) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double) :: x(:), dx(:)
    end subroutine
  end interface

contains

  real(c_double) function weighted(x) bind(C)
    real(c_double), intent(in) :: x(:)
    integer :: i
    weighted = minval(x) + norm2(x)
    do i = 1, size(x)
      weighted = weighted + i * sqrt(1 + x(i)**2)
    end do
  end function

  ! Adds the gradient of weighted at x into dx: both C descriptors.
  subroutine weighted_grad(x, dx) bind(C)
    real(c_double), intent(in) :: x(:)
    real(c_double), intent(inout) :: dx(:)
    call autodiff(c_funloc(weighted), x, dx)
  end subroutine
end module
