//===- ReverseLoops.h - Running loops backwards ----------------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reverse of a loop visits its iterations last to first. For each loop
// the reverse pass keeps:
//   - the iteration it is in (a count that the reverse of an exit edge sets
//     to the iteration in which the forward pass left, and that the reverse
//     of the header decrements; at 0 the reverse leaves for the preheader);
//   - for a loop nested in another, a second count that numbers the loop's
//     iterations over the whole call (its "flat" index): caches of values of
//     the inner loop are indexed by it, so that nests of any shape
//     (triangular, data-dependent, exited early) share one array per value.
//     The forward pass counts up; the reverse counts down from the total.
// A top-level loop runs at most once per call, so its iteration count is
// its flat index.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_REVERSELOOPS_H
#define ADJOINT_LIB_SYNTHESIS_REVERSELOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Loop;
class LoopInfo;
} // namespace llvm

namespace adjoint {

class ReverseLoops {
public:
  /// Creates the counters of every loop of \p LI (the forward blocks' loops)
  /// with \p Entry, which inserts at the top of the entry block.
  /// \p KnownExits gives, for loops with one exit, the iteration in which
  /// the forward pass leaves them, computed in the exit block.
  ReverseLoops(
      const llvm::LoopInfo &LI,
      const llvm::DenseMap<const llvm::Loop *, llvm::Value *> &KnownExits,
      llvm::IRBuilderBase &Entry);

  /// The loop whose header is \p BB, or null.
  llvm::Loop *loopWithHeader(const llvm::BasicBlock *BB) const;

  /// At a return of the forward pass: starts the flat counts of the reverse.
  void emitReverseStart(llvm::IRBuilderBase &B);

  /// At the end of the reverse of \p L's header: "was this the first
  /// iteration?", after which the flat count steps back.
  llvm::Value *emitLeaveIteration(const llvm::Loop &L, llvm::IRBuilderBase &B);
  /// On the way from the reverse of the header to the reverse of the latch.
  void emitStepBack(const llvm::Loop &L, llvm::IRBuilderBase &B);

  /// On the reverse of the exit edge \p Exiting -> \p Exit: enters the loops
  /// that contain \p Exiting but not \p Exit, at the iterations in which the
  /// forward pass left them. Adds to \p Exit the phis that record those.
  void emitEnterLoops(llvm::BasicBlock &Exiting, llvm::BasicBlock &Exit,
                      llvm::IRBuilderBase &B);

  /// The reverse pass's current iteration of \p L (its canonical IV).
  llvm::Value *reverseIteration(const llvm::Loop &L, llvm::IRBuilderBase &B);
  /// The index of the current iteration of \p L in its caches, in the
  /// reverse pass (at \p B) and in the forward pass (an instruction of the
  /// header, which dominates the loop).
  llvm::Value *reverseIndex(const llvm::Loop &L, llvm::IRBuilderBase &B);
  llvm::Instruction *forwardIndex(const llvm::Loop &L) const;
  /// Where per-iteration code of the forward pass may go in \p L's header:
  /// after the phis and the flat count.
  llvm::Instruction *iterationStart(const llvm::Loop &L) const;

private:
  struct Counters {
    llvm::AllocaInst *Iteration = nullptr; ///< Reverse iteration.
    llvm::AllocaInst *Flat = nullptr;      ///< Forward flat count (nested).
    llvm::AllocaInst *ReverseFlat = nullptr; ///< Reverse flat index.
    llvm::Instruction *ForwardFlat = nullptr;
    llvm::Instruction *IterationStart = nullptr;
  };

  const llvm::LoopInfo &LI;
  const llvm::DenseMap<const llvm::Loop *, llvm::Value *> &KnownExits;
  llvm::DenseMap<const llvm::Loop *, Counters> Loops;
  llvm::DenseMap<std::pair<llvm::BasicBlock *, const llvm::Loop *>,
                 llvm::PHINode *>
      ExitIterations;
};

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_REVERSELOOPS_H
