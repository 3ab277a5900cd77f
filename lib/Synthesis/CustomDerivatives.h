//===- CustomDerivatives.h - Derivatives the user registered ----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVES_H
#define ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVES_H

#include "adjoint/Synthesis/CallDerivatives.h"

namespace llvm {
class GlobalVariable;
class Instruction;
} // namespace llvm

namespace adjoint {

/// The pair for calls to \p F as \p P made of the functions the user
/// registered in \p Registration = { F, augmented forward, reverse }
/// (shared/api-semantics.md, "Custom derivatives"): two small adapters that
/// translate between the user's convention (every pointer followed by its
/// shadow, null when the call site has none; the reverse returns the
/// gradients of every floating-point parameter) and the pair's. Reports at
/// \p Site, naming the global and the signatures expected, and returns an
/// empty pair when the registered functions do not fit.
CallDerivative adaptCustomGradient(llvm::Function &F, const CallPattern &P,
                                   const llvm::GlobalVariable &Registration,
                                   const llvm::Instruction &Site);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVES_H
