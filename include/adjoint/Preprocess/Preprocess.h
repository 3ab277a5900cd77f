//===- adjoint/Preprocess/Preprocess.h - Canonical form for AD --*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// AD never touches the user's function. It differentiates a private clone
// that LLVM's own passes have put into a canonical form (SSA registers
// instead of stack slots, simplified CFG, folded arithmetic), so that the
// IR of -O0 and -O3 builds looks alike to the later stages.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PREPROCESS_PREPROCESS_H
#define ADJOINT_PREPROCESS_PREPROCESS_H

#include "llvm/IR/PassManager.h"

namespace adjoint {

/// Clones \p F into a new internal function of the same module, inlines the
/// functions it calls that are defined in the module (except recursion), and
/// canonicalizes the clone with \p FAM's passes. The caller owns the clone
/// and erases it when done.
llvm::Function *cloneForDifferentiation(llvm::Function &F,
                                        llvm::FunctionAnalysisManager &FAM);

class FunctionTypeInfo;

/// The second canonicalization step, once the type analysis (stage 2) has
/// run on the clone: integer loads and stores that move floating-point
/// numbers (optimized copies of doubles through i64) become floating-point
/// ones. Returns whether anything changed, in which case the type analysis
/// must be run again on \p F.
bool retypeFloatAccesses(llvm::Function &F, const FunctionTypeInfo &Types);

} // namespace adjoint

#endif // ADJOINT_PREPROCESS_PREPROCESS_H
