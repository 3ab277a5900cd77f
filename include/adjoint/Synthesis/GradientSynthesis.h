//===- adjoint/Synthesis/GradientSynthesis.h - Reverse mode -----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Builds the gradient function of a canonicalized clone: the forward pass
// (the clone's own body) followed by a reverse pass that walks the CFG
// backwards, block by block, and applies the rule of DerivativeRules.def of
// every active instruction in reverse order.
//
// The gradient function takes the primal parameters, each duplicated one
// followed by its shadow, and returns the gradients of the enzyme_out
// parameters: nothing, the one gradient, or a literal struct of them.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SYNTHESIS_GRADIENTSYNTHESIS_H
#define ADJOINT_SYNTHESIS_GRADIENTSYNTHESIS_H

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Planning/PrimalMemory.h"
#include "adjoint/Synthesis/CallDerivatives.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"

namespace llvm {
class Function;
class FunctionType;
class Instruction;
class LoadInst;
class raw_ostream;
} // namespace llvm

namespace adjoint {

class ActivityInfo;
class FunctionTypeInfo;

/// The signature of the gradient of \p F for activities \p Activities.
llvm::FunctionType *
gradientFunctionType(llvm::FunctionType *FTy,
                     llvm::ArrayRef<ArgActivity> Activities);
inline llvm::FunctionType *
gradientFunctionType(const llvm::Function &F,
                     llvm::ArrayRef<ArgActivity> Activities) {
  return gradientFunctionType(F.getFunctionType(), Activities);
}

/// What synthesis needs to build one gradient function.
struct GradientRequest {
  /// The canonical clone (see Preprocess.h); its body is consumed and it is
  /// erased, whether or not synthesis succeeds.
  llvm::Function &Primal;
  llvm::ArrayRef<ArgActivity> Activities;
  const ActivityInfo &Activity;
  const FunctionTypeInfo &Types;    ///< What the bytes of memory hold.
  llvm::StringRef SourceName;       ///< The user's function, for messages.
  const llvm::Instruction &Site;    ///< The requesting call, for messages.
  /// Loads the reverse pass can repeat (findReloadableLoads).
  const llvm::SmallPtrSetImpl<const llvm::LoadInst *> &Reloadable;
  /// Frees of Primal that the gradient makes just before it returns
  /// (findDeferrableFrees), so that the reverse can read the blocks.
  const DeferredFrees &Deferred;
  /// Where to print the cache plan, if anywhere (print<adjoint-plan>).
  llvm::raw_ostream *PlanOut = nullptr;
  /// The derivatives of the calls the clone still makes; null if it makes
  /// none that need one.
  CallDerivativeProvider *Calls = nullptr;
  /// For a split pair (synthesizeSplit): how callers use the function.
  /// Null for a gradient, whose floating-point return is seeded with 1.
  const CallPattern *Split = nullptr;
};

/// Builds the gradient function of \p R, named \p Name. Reports what cannot
/// be differentiated and returns null in that case.
llvm::Function *synthesizeGradient(const GradientRequest &R,
                                   const llvm::Twine &Name);

/// Gives the declarations \p Into the bodies of the augmented forward and
/// reverse functions of \p R (whose Split pattern is set; see
/// CallDerivatives.h). Reports what cannot be differentiated and returns
/// false in that case, leaving bodies that abort.
bool synthesizeSplit(const GradientRequest &R, const CallDerivative &Into);

} // namespace adjoint

#endif // ADJOINT_SYNTHESIS_GRADIENTSYNTHESIS_H
