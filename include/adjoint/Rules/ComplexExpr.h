//===- adjoint/Rules/ComplexExpr.h - Complex formulas that emit IR -*- C++ -*-//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The derivatives of the complex functions of DerivativeRules.def are
// written as complex formulas, `0.5 / r`, `y * r / x`. A Complex is a pair
// of real Exprs (RuleExpr.h); its operations emit the real arithmetic and
// calls that compute the real and imaginary parts, with the same folding
// of zeros and ones, so that `iunit * x` costs no multiplication.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RULES_COMPLEXEXPR_H
#define ADJOINT_RULES_COMPLEXEXPR_H

#include "adjoint/Rules/RuleExpr.h"

namespace adjoint {
namespace rules {

class Complex {
public:
  Complex() = default;
  Complex(Expr Re, Expr Im) : Re(Re), Im(Im) {}

  const Expr &re() const { return Re; }
  const Expr &im() const { return Im; }
  bool isNone() const { return Re.isNone(); }

  /// The constant Re + i Im, in this number's floating-point type.
  Complex constant(double Re, double Im) const;

private:
  Expr Re, Im;
};

Complex operator+(const Complex &A, const Complex &B);
Complex operator-(const Complex &A, const Complex &B);
Complex operator*(const Complex &A, const Complex &B);
Complex operator/(const Complex &A, const Complex &B);
Complex operator-(const Complex &A);

/// Real scalars, promoted to complex numbers with a zero imaginary part
/// (which the arithmetic folds away).
Complex operator*(const Complex &A, const Expr &S);
Complex operator*(const Expr &S, const Complex &A);
Complex operator/(const Complex &A, const Expr &S);
inline Complex operator+(const Complex &A, double C) {
  return A + A.constant(C, 0);
}
inline Complex operator+(double C, const Complex &A) {
  return A.constant(C, 0) + A;
}
inline Complex operator-(const Complex &A, double C) {
  return A - A.constant(C, 0);
}
inline Complex operator-(double C, const Complex &A) {
  return A.constant(C, 0) - A;
}
inline Complex operator*(const Complex &A, double C) {
  return A * A.constant(C, 0);
}
inline Complex operator*(double C, const Complex &A) {
  return A.constant(C, 0) * A;
}
inline Complex operator/(const Complex &A, double C) {
  return A / A.constant(C, 0);
}
inline Complex operator/(double C, const Complex &A) {
  return A.constant(C, 0) / A;
}

/// The complex conjugate.
Complex conj(const Complex &A);
/// |A|^2, a real number.
Expr norm(const Complex &A);

/// The elementary functions on the principal branch, as C99's <complex.h>
/// defines them, computed from their real and imaginary parts.
Complex exp(const Complex &A);
Complex log(const Complex &A);
Complex sin(const Complex &A);
Complex cos(const Complex &A);
Complex sinh(const Complex &A);
Complex cosh(const Complex &A);

} // namespace rules
} // namespace adjoint

#endif // ADJOINT_RULES_COMPLEXEXPR_H
