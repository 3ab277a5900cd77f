//===- ComplexExpr.cpp - Complex formulas that emit IR ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/ComplexExpr.h"

using namespace llvm;

namespace adjoint {
namespace rules {

Complex Complex::constant(double R, double I) const {
  return Complex(Re.constant(R), Re.constant(I));
}

Complex operator+(const Complex &A, const Complex &B) {
  return Complex(A.re() + B.re(), A.im() + B.im());
}

Complex operator-(const Complex &A, const Complex &B) {
  return Complex(A.re() - B.re(), A.im() - B.im());
}

Complex operator*(const Complex &A, const Complex &B) {
  return Complex(A.re() * B.re() - A.im() * B.im(),
                 A.re() * B.im() + A.im() * B.re());
}

Complex operator/(const Complex &A, const Complex &B) {
  // A real divisor: no cross terms, and no squared magnitude that could
  // overflow or lose precision.
  if (B.im().isConstant(0.0))
    return A / B.re();
  // The textbook formula: derivatives are evaluated at finite points, where
  // the scaling that C99's Annex G does against overflow is not needed.
  Expr D = norm(B);
  return Complex((A.re() * B.re() + A.im() * B.im()) / D,
                 (A.im() * B.re() - A.re() * B.im()) / D);
}

Complex operator-(const Complex &A) { return Complex(-A.re(), -A.im()); }

Complex operator*(const Complex &A, const Expr &S) {
  return Complex(A.re() * S, A.im() * S);
}

Complex operator*(const Expr &S, const Complex &A) { return A * S; }

Complex operator/(const Complex &A, const Expr &S) {
  return Complex(A.re() / S, A.im() / S);
}

Complex conj(const Complex &A) {
  if (A.im().isConstant(0.0))
    return A;
  return Complex(A.re(), -A.im());
}

Expr norm(const Complex &A) { return A.re() * A.re() + A.im() * A.im(); }

Complex exp(const Complex &A) {
  Expr M = exp(A.re());
  return Complex(M * cos(A.im()), M * sin(A.im()));
}

Complex log(const Complex &A) {
  return Complex(log(norm(A)) * 0.5, atan2(A.im(), A.re()));
}

Complex sin(const Complex &A) {
  return Complex(sin(A.re()) * cosh(A.im()), cos(A.re()) * sinh(A.im()));
}

Complex cos(const Complex &A) {
  return Complex(cos(A.re()) * cosh(A.im()), -(sin(A.re()) * sinh(A.im())));
}

Complex sinh(const Complex &A) {
  return Complex(sinh(A.re()) * cos(A.im()), cosh(A.re()) * sin(A.im()));
}

Complex cosh(const Complex &A) {
  return Complex(cosh(A.re()) * cos(A.im()), sinh(A.re()) * sin(A.im()));
}

} // namespace rules
} // namespace adjoint
