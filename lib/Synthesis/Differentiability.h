//===- Differentiability.h - Can synthesis handle this function? -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H
#define ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H

#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Function;
class Instruction;
} // namespace llvm

namespace adjoint {

class ActivityInfo;
class FunctionTypeInfo;
struct GradientRequest;

/// A function to check, in either mode: the canonical clone and what the
/// earlier stages found about it.
struct DifferentiabilityQuery {
  const llvm::Function &F;
  llvm::ArrayRef<ArgActivity> Activities;
  const ActivityInfo &Activity;
  const FunctionTypeInfo &Types;
  llvm::StringRef SourceName;    ///< The user's function, for messages.
  const llvm::Instruction &Site; ///< The requesting call, for messages.
  DiffMode Mode;
  /// The calls that synthesis differentiates by calling a derivative
  /// function (forward mode: functions left after inlining, and those with
  /// a registered derivative); may be null.
  llvm::function_ref<bool(const llvm::CallBase &)> CallsDerivative = nullptr;
  /// Reverse mode: a split pair's (whose callers seed any return type).
  bool IsSplit = false;
};

/// Reports, as located errors, every construct of \p Q's function that
/// synthesis cannot differentiate (yet) in \p Q's mode, naming the user's
/// function and the requesting call. Returns true when there is none.
bool checkDifferentiable(const DifferentiabilityQuery &Q);

/// checkDifferentiable for a reverse-mode request.
bool checkDifferentiable(const GradientRequest &R);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H
