! What cannot be differentiated stops the compilation with located errors
! and no object file. flang drops the diagnostics of LLVM passes, so the
! plugin prints them itself: with -g at the source line of the operation,
! without -g naming the function, and then ends the compilation.
! RUN: mkdir -p %t.mod
! RUN: rm -f %t.o
! RUN: not %flang-adjoint -O2 -g -module-dir %t.mod -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LINES
! RUN: not ls %t.o
! RUN: not %flang-adjoint -O2 -module-dir %t.mod -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOLINES
! RUN: not ls %t.o

module errors
  use iso_c_binding
  implicit none

  interface
    real(c_double) function autodiff(f, x) bind(C, name="__enzyme_autodiff")
      import :: c_double, c_funptr
      type(c_funptr), value :: f
      real(c_double), value :: x
    end function
    ! Misuse: enzyme_out on a pointer is checked as in C.
    real(c_double) function autodiff_pointer(f, m, x) bind(C, name="__enzyme_autodiff_p")
      import :: c_double, c_funptr, c_int
      type(c_funptr), value :: f
      integer(c_int), value :: m
      real(c_double) :: x(*)
    end function
  end interface

  integer(c_int), bind(C, name="enzyme_out") :: enzyme_out
  real(c_double) :: saved

contains

  ! EOSHIFT is a call into the runtime that has no model.
  real(c_double) function shifted(x) bind(C)
    real(c_double), value :: x
    real(c_double) :: v(3)
    v = [x, 2 * x, 3 * x]
    ! LINES-DAG: errors.f90:[[@LINE+2]]:5: error: adjoint: '_FortranAEoshiftVector' (EOSHIFT) is a function of the Fortran runtime that Adjoint cannot differentiate through yet; {{.*}} (in the gradient of 'shifted' requested at {{.*}}errors.f90:{{[0-9]+}}:5)
    ! NOLINES-DAG: error: adjoint: '_FortranAEoshiftVector' (EOSHIFT) is a function of the Fortran runtime {{.*}} (in the gradient of 'shifted' requested at function 'grad') [compile with -g for source lines]
    shifted = sum(eoshift(v, 1) * v)
  end function

  ! A derivative cannot be kept in a module variable. Names flang mangles
  ! (_QMerrorsPkeep) are shown as in the source.
  real(c_double) function keep(x)
    real(c_double), value :: x
    ! LINES-DAG: errors.f90:[[@LINE+2]]:5: error: adjoint: storing a value that carries a derivative into global variable 'errors::saved' is not supported{{.*}}(in the gradient of 'errors::keep' requested at
    ! NOLINES-DAG: error: adjoint: storing a value that carries a derivative into global variable 'errors::saved' {{.*}}(in the gradient of 'errors::keep' requested at function 'grad')
    saved = 2 * x
    keep = saved
  end function

  real(c_double) function first(x) bind(C)
    real(c_double), intent(in) :: x(*)
    first = x(1)
  end function

  real(c_double) function grad(x) bind(C)
    real(c_double), value :: x
    real(c_double) :: v(1)
    v = x
    ! LINES-DAG: errors.f90:[[@LINE+2]]:5: error: adjoint: enzyme_out on parameter 1 of 'first'
    ! NOLINES-DAG: error: adjoint: enzyme_out on parameter 1 of 'first' {{.*}} (in function 'grad') [compile with -g for source lines]
    grad = autodiff(c_funloc(shifted), x) + &
           autodiff_pointer(c_funloc(first), enzyme_out, v) + &
           autodiff(c_funloc(keep), x)
  end function
end module

! LINES: LLVM ERROR: adjoint: 3 errors reported above; compilation stopped
! NOLINES: LLVM ERROR: adjoint: 3 errors reported above; compilation stopped
