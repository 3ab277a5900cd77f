//===- PrimalValues.h - Primal values where the reverse needs them -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reverse code is first written as if every primal value were still at
// hand. That holds for values outside loops, which exist once; a value
// inside a loop changes every iteration. Once the reverse pass is complete,
// this step collects the loop values its code uses, asks the cache plan
// (adjoint/Planning/CachePlan.h) which to recompute and which to cache, and
// rewrites each use: into a recomputation in the reverse block, into a load
// from the value's cache, or (for a canonical induction variable) into the
// reverse pass's own iteration count. It then emits the caches: one array
// per loop, of one record per iteration holding the loop's cached values,
// allocated once when the trip count is known at the loop's entry and grown
// by doubling otherwise, filled by the forward pass, freed at the end.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_PRIMALVALUES_H
#define ADJOINT_LIB_SYNTHESIS_PRIMALVALUES_H

#include "adjoint/Planning/CachePlan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class BasicBlock;
class Function;
class LoopInfo;
class raw_ostream;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace adjoint {

class ReverseLoops;

struct ReverseCode {
  llvm::Function &Grad;
  /// The forward pass's blocks and their loops.
  const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &ForwardBlocks;
  const llvm::LoopInfo &LI;
  /// For each block of the reverse pass, the forward block it reverses.
  const llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> &Mirrors;
  ReverseLoops &Loops;
  /// Iterations of loops over the call (upper bounds) known at the entry of
  /// their outermost loops, computed in those loops' preheaders.
  const llvm::DenseMap<const llvm::Loop *, llvm::Value *> &TripCounts;
};

/// Makes every primal value that \p Code uses available where it is used.
/// Prints the plan to \p PlanOut if given. Returns false (after printing
/// nothing else) if a use cannot be served, which is an internal error.
bool providePrimalValues(const ReverseCode &Code,
                         CachePlan::RecomputePredicate CanRecompute,
                         llvm::raw_ostream *PlanOut);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_PRIMALVALUES_H
