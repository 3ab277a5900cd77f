//===- UnwindPaths.cpp - Calls that may throw -------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// C++ code calls functions that may throw through `invoke`, whose unwind
// edge leads to a landing pad: at -O0 nearly every call in a scope with a
// destructor, and still at -O3 for `operator new` growing a std::vector.
// The gradient is defined for the run in which nothing throws, so AD takes
// the unwind edges as never taken: an invoke becomes a call followed by a
// branch to its normal destination, and the landing pads, now unreachable,
// disappear. Should a call throw anyway while the gradient runs, the
// exception leaves the gradient function without running the function's
// cleanups; no gradient is returned, so none can be wrong.
//
// That reading is only faithful when the landing pad never lets the
// function go on: it cleans up and resumes, rethrows, or ends the program
// (the std::terminate of a noexcept boundary). A landing pad from which the
// function may return, a `catch` that handles the exception, is part of
// what the function does; its invokes stay, and the differentiability
// check reports them.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adjoint {

SmallPtrSet<const BasicBlock *, 32> blocksReachingReturn(const Function &F) {
  SmallPtrSet<const BasicBlock *, 32> Reaching;
  SmallVector<const BasicBlock *, 32> Worklist;
  for (const BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()) && Reaching.insert(&BB).second)
      Worklist.push_back(&BB);
  while (!Worklist.empty())
    for (const BasicBlock *Pred : predecessors(Worklist.pop_back_val()))
      if (Reaching.insert(Pred).second)
        Worklist.push_back(Pred);
  return Reaching;
}

bool dropUnwindPaths(Function &F) {
  // From a landing pad that reaches no return, the function never goes
  // on: its handlers only clean up and resume, rethrow (`catch (...) {
  // ...; throw; }` in the standard library), or terminate (a noexcept
  // boundary).
  SmallPtrSet<const BasicBlock *, 32> Reaching = blocksReachingReturn(F);
  SmallVector<InvokeInst *, 16> Invokes;
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      if (II->doesNotThrow() || !Reaching.contains(II->getUnwindDest()))
        Invokes.push_back(II);
  if (Invokes.empty())
    return false;
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  removeUnreachableBlocks(F);
  return true;
}

} // namespace adjoint
