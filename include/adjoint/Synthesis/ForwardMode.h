//===- adjoint/Synthesis/ForwardMode.h - Forward mode -----------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Builds the forward derivative of a canonicalized clone: the clone's own
// body, in which every active instruction is followed by the computation of
// its tangent, tangent(r) = sum over operands i of partial_i * tangent(x_i),
// with the partials of DerivativeRules.def (the table reverse mode reads).
// Shadow memory holds tangents: a store through an active pointer also
// stores the tangent of the value into the shadow, a load loads it back.
//
// The forward derivative of f takes f's parameters, each duplicated one
// followed by its tangent (for a pointer: its shadow), and returns the
// tangent of f's floating-point return value (nothing when f returns
// anything else). Calls that inlining left (recursion) call the forward
// derivative of their callee instead; those derivatives return the
// primal value as well, `{value, tangent}`, since they replace the call.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SYNTHESIS_FORWARDMODE_H
#define ADJOINT_SYNTHESIS_FORWARDMODE_H

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Frontend/CustomDerivatives.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class FunctionType;
class Instruction;
} // namespace llvm

namespace adjoint {

class ActivityInfo;
class FunctionTypeInfo;

/// The signature of the forward derivative of \p F for \p Activities. With
/// \p ReturnPrimal it returns what F returns as well, `{value, tangent}` (or
/// only the value when it has no tangent), so that it can replace a call.
llvm::FunctionType *forwardFunctionType(const llvm::Function &F,
                                        llvm::ArrayRef<ArgActivity> Activities,
                                        bool ReturnPrimal);

/// What synthesis needs to build one forward derivative.
struct ForwardRequest {
  /// The canonical clone (see Preprocess.h); its body is consumed and it is
  /// erased, whether or not synthesis succeeds.
  llvm::Function &Primal;
  llvm::ArrayRef<ArgActivity> Activities;
  const ActivityInfo &Activity;
  const FunctionTypeInfo &Types;
  llvm::StringRef SourceName;    ///< The user's function, for messages.
  const llvm::Instruction &Site; ///< The requesting call, for messages.
  bool ReturnPrimal;             ///< See forwardFunctionType.
  /// The forward derivative to call in place of a call to the defined
  /// function `Callee` whose arguments have the activities `Pattern`: a
  /// function of type forwardFunctionType(Callee, Pattern, true), possibly
  /// still without a body (it may be the one being built).
  llvm::function_ref<llvm::Function *(llvm::Function &Callee,
                                      llvm::ArrayRef<ArgActivity> Pattern)>
      DerivativeOf;
  /// The forward derivatives the program registered; calls to these
  /// functions call them (after the call itself) instead of being
  /// differentiated.
  const llvm::DenseMap<const llvm::Function *, CustomForwardDerivative>
      &Custom;
};

/// Fills \p Into, a function without a body of type
/// forwardFunctionType(the user's function, R.Activities, R.ReturnPrimal),
/// with the forward derivative of \p R, and gives it internal linkage.
/// Reports what cannot be differentiated and returns false in that case,
/// leaving \p Into without a body.
bool synthesizeForward(const ForwardRequest &R, llvm::Function &Into);

} // namespace adjoint

#endif // ADJOINT_SYNTHESIS_FORWARDMODE_H
