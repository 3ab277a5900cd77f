//===- SlotPromotion.cpp - Slots to registers -------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/SlotPromotion.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The store that initializes \p Slot: a store to it in the entry block
/// before any other access there; null if there is none. (Found from the
/// slot's users, as the entry block may hold thousands of slots.)
StoreInst *findInitialization(AllocaInst &Slot) {
  Instruction *First = nullptr;
  for (User *U : Slot.users())
    if (auto *I = cast<Instruction>(U);
        I->getParent() == Slot.getParent() && (!First || I->comesBefore(First)))
      First = I;
  auto *SI = dyn_cast_or_null<StoreInst>(First);
  return SI && SI->getPointerOperand() == &Slot ? SI : nullptr;
}

/// The blocks on a cycle of \p F's CFG (natural loops, and the irreducible
/// cycles that reversing a loop with several exits makes).
SmallPtrSet<const BasicBlock *, 32> blocksOnCycles(Function &F) {
  SmallPtrSet<const BasicBlock *, 32> OnCycle;
  for (scc_iterator<Function *> SCC = scc_begin(&F); !SCC.isAtEnd(); ++SCC)
    if (SCC.hasCycle())
      OnCycle.insert(SCC->begin(), SCC->end());
  return OnCycle;
}

} // namespace

unsigned sinkSlotInitializations(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  DominatorTree DT(F);
  SmallPtrSet<const BasicBlock *, 32> OnCycle = blocksOnCycles(F);
  unsigned Moved = 0;
  for (Instruction &I : Entry) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot || !isAllocaPromotable(Slot))
      continue;
    StoreInst *Init = findInitialization(*Slot);
    if (!Init)
      continue;
    // The nearest block that dominates every other access.
    BasicBlock *Dom = nullptr;
    for (User *U : Slot->users()) {
      auto *Access = cast<Instruction>(U);
      if (Access == Init)
        continue;
      BasicBlock *BB = Access->getParent();
      if (!DT.isReachableFromEntry(BB)) {
        Dom = &Entry; // Leave slots used in unreachable code alone.
        break;
      }
      Dom = Dom ? DT.findNearestCommonDominator(Dom, BB) : BB;
    }
    if (!Dom)
      continue;
    // Up the dominator tree out of cycles (an adjoint summed over a loop's
    // iterations goes above the loop).
    while (Dom != &Entry && OnCycle.contains(Dom))
      Dom = DT.getNode(Dom)->getIDom()->getBlock();
    // No access can run before Dom's first run, as Dom dominates them all;
    // and off cycles, Dom runs at most once. So storing at its top is the
    // same as storing in the entry. The stored value is a constant or
    // defined in the entry block, which dominates Dom.
    if (Dom == &Entry)
      continue;
    Init->moveBefore(&*Dom->getFirstInsertionPt());
    ++Moved;
  }
  return Moved;
}

} // namespace adjoint
