//===- adjoint/Planning/CachePlan.h - Recompute or cache --------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reverse pass visits a loop's iterations backwards and needs, in each,
// primal values that the forward pass computed in that iteration. A value
// defined outside every loop exists once and is simply kept; a value defined
// inside a loop is either recomputed in the reverse from values that are
// available there, or cached by the forward pass in an array indexed by the
// iteration.
//
// The plan chooses the set of cached values of least size (bytes weighted
// by loop depth, since a value of an inner loop is stored more often than
// one of the loop around it): a minimum vertex cut (MinCut.h) between the values that cannot be recomputed (phis, loads
// of memory the function overwrites, calls) and the values the reverse pass
// needs, through the instructions that can be recomputed from their
// operands. Loop-invariant values and the canonical induction variables
// (which the reverse counts down itself) are free.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PLANNING_CACHEPLAN_H
#define ADJOINT_PLANNING_CACHEPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Instruction;
class LoadInst;
class Loop;
class LoopInfo;
class raw_ostream;
} // namespace llvm

namespace adjoint {

/// How the reverse pass obtains one primal value defined inside a loop.
struct ValuePlan {
  enum KindType {
    Recompute, ///< Emitted again in the reverse, from its operands.
    Cache,     ///< Stored by the forward pass, one element per iteration.
    Counter,   ///< A canonical induction variable: the reverse's own count.
  };
  KindType Kind;
  const llvm::Loop *InLoop; ///< The innermost loop that defines it.
  uint64_t Bytes;           ///< Per iteration of InLoop, for Cache (the
                            ///< type's allocation size, as in an array).
};

class CachePlan {
public:
  /// Can \p I be emitted again in the reverse pass, given its operands?
  /// Pure, cheap instructions can; so can loads of \p Reloadable memory.
  using RecomputePredicate = llvm::function_ref<bool(const llvm::Instruction &)>;

  /// Plans how the reverse pass gets each of \p Needed (the primal values
  /// its code uses) and the values those are recomputed from.
  CachePlan(llvm::ArrayRef<llvm::Instruction *> Needed,
            const llvm::LoopInfo &LI, RecomputePredicate CanRecompute);

  /// The plan for \p I; null for values outside loops (always available)
  /// and for values that nothing needed is recomputed from.
  const ValuePlan *lookup(const llvm::Instruction *I) const;

  /// The cached values, in the function's order.
  llvm::SmallVector<llvm::Instruction *, 8> cachedValues() const;

  /// Bytes cached per iteration of \p L (by values defined directly in it).
  uint64_t cachedBytesPerIteration(const llvm::Loop *L) const;

  void print(llvm::raw_ostream &OS) const;

private:
  llvm::MapVector<llvm::Instruction *, ValuePlan> Plans;
  llvm::SmallPtrSet<const llvm::Instruction *, 16> NeededSet;
};

/// The default recompute predicate: side-effect-free arithmetic, casts,
/// comparisons, GEPs, selects, vector and aggregate shuffles, cheap
/// intrinsics, and loads in \p Reloadable. Never phis, other loads, calls,
/// allocas.
bool isCheapToRecompute(
    const llvm::Instruction &I,
    const llvm::SmallPtrSetImpl<const llvm::LoadInst *> &Reloadable);

} // namespace adjoint

#endif // ADJOINT_PLANNING_CACHEPLAN_H
