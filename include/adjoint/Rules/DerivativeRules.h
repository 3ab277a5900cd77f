//===- adjoint/Rules/DerivativeRules.h - The derivative table ---*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The rules of DerivativeRules.def, as data: for each differentiable
// primitive, one formula per operand giving the partial derivative of the
// result with respect to that operand. Synthesis asks for a rule and emits
// its partials; it never knows which primitive it is looking at.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RULES_DERIVATIVERULES_H
#define ADJOINT_RULES_DERIVATIVERULES_H

#include "adjoint/Rules/ComplexExpr.h"
#include "adjoint/Rules/RuleExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

namespace adjoint {

/// What a formula may refer to (see DerivativeRules.def).
struct RuleScope {
  rules::Expr X[3]; ///< Operands x, y, z.
  rules::Expr R;    ///< The primitive's result r.
  rules::Expr One, Zero;
};

using PartialFormula = rules::Expr (*)(const RuleScope &);

/// What the formulas of a complex function may refer to.
struct ComplexRuleScope {
  rules::Complex X[2]; ///< The complex arguments x, y.
  rules::Complex R;    ///< The complex result r.
  rules::Expr RealR;   ///< The result r of a real function (cabs).
  rules::Complex One, Zero, IUnit;
};

using ComplexFormula = rules::Complex (*)(const ComplexRuleScope &);

struct DerivativeRule {
  enum RuleKind { Instruction, Function, ComplexFunction };
  /// How the partials of a complex function act on its adjoint.
  enum ComplexForm { Holomorphic, Conjugate, ToReal };
  RuleKind Kind;
  llvm::StringRef Name;        ///< Opcode name, or the C function's name.
  unsigned Opcode;             ///< For instructions.
  llvm::Intrinsic::ID IntrinsicID; ///< For functions; may be not_intrinsic.
  bool HasCFunction;           ///< Name is also a C library function.
  unsigned NumOperands;        ///< For complex functions: complex arguments.
  PartialFormula Partials[3]; ///< One per operand.
  ComplexForm Form = Holomorphic;         ///< For complex functions.
  ComplexFormula ComplexPartials[2] = {}; ///< One per complex argument.

  /// Does a derivative flow to operand \p Idx at all? False for conditions
  /// and integer operands, which the table marks `inactive`, and for
  /// complex functions, whose derivatives are complex.
  bool isOperandDifferentiable(unsigned Idx) const;
};

/// Every rule, in table order.
llvm::ArrayRef<DerivativeRule> allRules();

/// The rule for \p I (an instruction, an intrinsic call, or a call to a C
/// math function), or null when the table has none.
const DerivativeRule *findRule(const llvm::Instruction &I);

/// The rule for the C function \p Name ("sin", "sinf", "sinl", "cexpf",
/// "__mulsc3"), or null.
const DerivativeRule *findFunctionRule(llvm::StringRef Name);

/// The value that operand \p Idx of \p R refers to in \p I.
llvm::Value *ruleOperand(const llvm::Instruction &I, unsigned Idx);

/// Emits, at \p B's insertion point, the partial derivative of \p I's result
/// with respect to rule operand \p Idx. Returns a "none" Expr for operands
/// that take no derivative. The primal values it uses are \p I's own
/// operands and result.
rules::Expr emitPartial(const DerivativeRule &R, llvm::Instruction &I,
                        unsigned Idx, llvm::IRBuilderBase &B);

/// Emits, at \p B's insertion point, the reverse of \p I under its rule
/// \p R: for each operand of \p I that \p IsActive accepts and that takes a
/// derivative, calls \p Accumulate with the operand's index and its share
/// of \p Adjoint, the adjoint of \p I's result: adjoint * partial, or for a
/// complex function the transposed Jacobian applied to the complex adjoint,
/// in the form in which the call passes that argument (a vector of two, or
/// the real and imaginary parts as two operands). Zero shares are skipped.
void emitOperandAdjoints(
    const DerivativeRule &R, llvm::Instruction &I, llvm::Value *Adjoint,
    llvm::IRBuilderBase &B,
    llvm::function_ref<bool(const llvm::Value *)> IsActive,
    llvm::function_ref<void(unsigned OperandIdx, llvm::Value *Share)>
        Accumulate);

/// Is \p I one of the table's ADJOINT_MOVEMENT instructions?
bool isDataMovement(const llvm::Instruction &I);

/// Emits the reverse of the data movement \p I: the transposed movement of
/// \p Adjoint (the adjoint of \p I's result). Calls \p Accumulate with each
/// operand index and the share of the adjoint it receives.
void emitTransposedMovement(
    llvm::Instruction &I, llvm::Value *Adjoint, llvm::IRBuilderBase &B,
    llvm::function_ref<void(unsigned OperandIdx, llvm::Value *Share)>
        Accumulate);

/// The zero an adjoint starts from: -0.0 in every floating-point leaf of
/// \p T, because x + -0.0 == x for every x (while x + 0.0 is -0.0 + 0.0 = 0.0
/// for x = -0.0), so the first accumulation folds away.
llvm::Constant *adjointZero(llvm::Type *T);

/// A + B for adjoints of any type: floating-point scalars and vectors, and
/// aggregates of them, whose non-floating-point fields are left as in \p A.
llvm::Value *addAdjoints(llvm::IRBuilderBase &B, llvm::Value *A,
                         llvm::Value *C);

} // namespace adjoint

#endif // ADJOINT_RULES_DERIVATIVERULES_H
