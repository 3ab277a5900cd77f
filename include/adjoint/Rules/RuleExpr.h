//===- adjoint/Rules/RuleExpr.h - Formulas that emit IR ---------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Derivative rules are written as ordinary formulas, `1.0 / sqrt(1.0 - x*x)`,
// over Expr values. Evaluating a formula emits the IR that computes it at the
// builder's insertion point, folding the identities (x*1, x*0, x+0) that
// matter when a derivative is sparse. Both reverse mode (adjoint times
// partial) and forward mode (partial times tangent) evaluate the same
// formulas. A scalar combined with a vector is broadcast to every lane.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RULES_RULEEXPR_H
#define ADJOINT_RULES_RULEEXPR_H

#include "llvm/IR/IRBuilder.h"

namespace adjoint {
namespace rules {

/// A value in a derivative formula: an IR value plus the builder that emits
/// operations on it. A default-constructed Expr means "no derivative".
class Expr {
public:
  Expr() = default;
  Expr(llvm::IRBuilderBase &B, llvm::Value *V) : B(&B), V(V) {}

  bool isNone() const { return V == nullptr; }
  llvm::Value *value() const { return V; }
  llvm::IRBuilderBase &builder() const { return *B; }
  llvm::Type *type() const { return V->getType(); }

  /// A constant of this expression's (floating-point) type.
  Expr constant(double C) const;
  /// Is this exactly the constant \p C (splat, for vectors)?
  bool isConstant(double C) const;

private:
  llvm::IRBuilderBase *B = nullptr;
  llvm::Value *V = nullptr;
};

Expr operator+(const Expr &A, const Expr &B);
Expr operator-(const Expr &A, const Expr &B);
Expr operator*(const Expr &A, const Expr &B);
Expr operator/(const Expr &A, const Expr &B);
Expr operator-(const Expr &A);
inline Expr operator+(const Expr &A, double C) { return A + A.constant(C); }
inline Expr operator+(double C, const Expr &A) { return A.constant(C) + A; }
inline Expr operator-(const Expr &A, double C) { return A - A.constant(C); }
inline Expr operator-(double C, const Expr &A) { return A.constant(C) - A; }
inline Expr operator*(const Expr &A, double C) { return A * A.constant(C); }
inline Expr operator*(double C, const Expr &A) { return A.constant(C) * A; }
inline Expr operator/(const Expr &A, double C) { return A / A.constant(C); }
inline Expr operator/(double C, const Expr &A) { return A.constant(C) / A; }

/// Ordered comparisons; the results are i1 (or vectors of i1).
Expr operator<(const Expr &A, const Expr &B);
Expr operator<=(const Expr &A, const Expr &B);
Expr operator==(const Expr &A, const Expr &B);

/// `Cond ? A : B`, elementwise for vectors.
Expr where(const Expr &Cond, const Expr &A, const Expr &B);

/// Elementary functions, emitted as LLVM intrinsics where one exists and as
/// calls to the C library otherwise.
Expr sqrt(const Expr &A);
Expr exp(const Expr &A);
Expr log(const Expr &A);
Expr sin(const Expr &A);
Expr cos(const Expr &A);
Expr sinh(const Expr &A);
Expr cosh(const Expr &A);
Expr trunc(const Expr &A);
Expr pow(const Expr &A, const Expr &B);
/// The angle of the point (X, Y), as C's atan2(Y, X).
Expr atan2(const Expr &Y, const Expr &X);
Expr copysign(const Expr &Magnitude, const Expr &Sign);

/// The product of the lanes of the vector \p A (a scalar).
Expr productOfLanes(const Expr &A);
/// Lane i: the product of every lane of \p A but lane i. Unlike
/// product / A[i], exact when lanes are zero.
Expr productOfOtherLanes(const Expr &A);
/// 1 in the first lane of \p A that equals the scalar \p S, 0 elsewhere:
/// where a min or max reduction took its result from.
Expr firstLaneEqualTo(const Expr &A, const Expr &S);

/// A constant 1 of \p A's type (every lane, for vectors).
inline Expr onesLike(const Expr &A) { return A.constant(1.0); }

/// Converts an integer operand (e.g. powi's exponent) to the floating-point
/// type of \p Like.
Expr toFloat(const Expr &Int, const Expr &Like);

} // namespace rules
} // namespace adjoint

#endif // ADJOINT_RULES_RULEEXPR_H
