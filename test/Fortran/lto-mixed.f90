! A C program differentiates a Fortran function of another file at link
! time (full LTO, lld with the plugin): the Fortran file is compiled to
! bitcode by flang (once without the plugin, once with it, which defers to
! the link), the C driver (Inputs/lto-mixed-driver.c, __enzyme_autodiff in
! C) by clang, and the gradient is built on the merged program, with the
! models of flang's runtime (MATMUL, NORM2, MINVAL, an allocatable
! assignment). Checked against finite differences.
! RUN: mkdir -p %t.mod
! RUN: %flang -O2 -flto -module-dir %t.mod -c %s -o %t.f.o
! RUN: %clang -O2 -flto -c %S/Inputs/lto-mixed-driver.c -o %t.c.o
! RUN: %clang-lto-link %t.c.o %t.f.o %fortran-runtime -o %t
! RUN: %t | FileCheck %s
! RUN: %flang-adjoint -O2 -flto -module-dir %t.mod -c %s -o %t.fp.o
! RUN: %clang-lto-link %t.c.o %t.fp.o %fortran-runtime -o %t.p
! RUN: %t.p | FileCheck %s
! CHECK: link-time gradient ok

! e(x) for x of n = 3 k values: with M the k x 3 matrix x read by columns,
! |M c| + minval(x) + sum(t * t) for t = exp(x / 4), c = (1, -2, 3).
real(c_double) function layered(x, n) bind(C)
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double), allocatable :: t(:)
  real(c_double) :: m(n / 3, 3)
  m = reshape(x, [n / 3, 3])
  t = exp(x / 4)
  layered = norm2(matmul(m, [1d0, -2d0, 3d0])) + minval(x) + sum(t * t)
end function
