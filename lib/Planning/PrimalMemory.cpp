//===- PrimalMemory.cpp - Memory the reverse pass reads again ---------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Planning/PrimalMemory.h"
#include "adjoint/Rules/DerivativeRules.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Is \p Callee a function of the C or C++ library that LLVM knows?
bool isLibraryFunction(const Function *Callee, const TargetLibraryInfo &TLI) {
  LibFunc Func;
  return Callee && Callee->isDeclaration() && TLI.getLibFunc(*Callee, Func) &&
         TLI.has(Func);
}

/// The block \p Free frees when it is one \p F allocates once, outside
/// every loop, with a library allocation function; null otherwise.
const CallBase *freedOnceAllocatedBlock(const CallBase &Free,
                                        const LoopInfo &LI,
                                        const TargetLibraryInfo &TLI) {
  if (!isLibraryFunction(Free.getCalledFunction(), TLI))
    return nullptr;
  const auto *Block =
      dyn_cast_or_null<CallBase>(getFreedOperand(&Free, &TLI));
  if (!Block || !isAllocLikeFn(Block, &TLI) ||
      !isLibraryFunction(Block->getCalledFunction(), TLI))
    return nullptr;
  if (LI.getLoopFor(Block->getParent()) || LI.getLoopFor(Free.getParent()))
    return nullptr;
  return Block;
}

/// The C math functions LLVM's library info does not list (it lists those
/// it optimizes), with their float and long double variants.
bool isUnlistedMathFunction(StringRef Name) {
  if (Name.size() > 2 && (Name.back() == 'f' || Name.back() == 'l'))
    Name = Name.drop_back();
  return StringSwitch<bool>(Name)
      .Cases("lgamma", "tgamma", "gamma", "erfc", "fdim", true)
      .Cases("j0", "j1", "jn", "y0", "y1", "yn", true)
      .Default(false);
}

/// A call of a C library function that takes no pointer (lgamma, a libm
/// function without a derivative rule): all it may write is the library's
/// own state (errno, signgam). Declared without attributes, it would
/// otherwise count as writing every array, and every load be cached.
bool writesOnlyLibraryState(const Instruction &I,
                            const TargetLibraryInfo &TLI) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !Callee->isDeclaration() ||
      any_of(Call->args(),
             [](const Use &Arg) { return Arg->getType()->isPointerTy(); }))
    return false;
  return isLibraryFunction(Callee, TLI) ||
         isUnlistedMathFunction(Callee->getName());
}

/// The library's state lives in globals: only loads that may read a global
/// can see what writesOnlyLibraryState calls write (an argument pointing at
/// errno or signgam is not considered).
bool mayReadGlobal(const LoadInst &Load) {
  const Value *Object = getUnderlyingObject(Load.getPointerOperand());
  return !isa<Argument, AllocaInst>(Object) && !isNoAliasCall(Object);
}

} // namespace

DeferredFrees findDeferrableFrees(Function &F, const DominatorTree &DT,
                                  const PostDominatorTree &PDT,
                                  const LoopInfo &LI,
                                  const TargetLibraryInfo &TLI) {
  SmallVector<const ReturnInst *, 2> Returns;
  for (BasicBlock &BB : F)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  DeferredFrees Deferred;
  if (Returns.empty())
    return Deferred;
  for (const Instruction &I : instructions(F)) {
    const auto *Free = dyn_cast<CallBase>(&I);
    const CallBase *Block =
        Free ? freedOnceAllocatedBlock(*Free, LI, TLI) : nullptr;
    // Freed on every path that returns and on no other, so that the
    // gradient's return frees exactly what the function frees.
    if (Block && PDT.dominates(Free->getParent(), Block->getParent()) &&
        all_of(Returns,
               [&](const ReturnInst *Ret) { return DT.dominates(Block, Ret); }))
      Deferred.insert(Free);
  }
  return Deferred;
}

SmallPtrSet<const LoadInst *, 16>
findReloadableLoads(Function &F, AAResults &AA, const DominatorTree &DT,
                    const LoopInfo &LI, const TargetLibraryInfo &TLI,
                    const DeferredFrees &Deferred) {
  SmallVector<const Instruction *, 16> Writers, LibraryWriters;
  SmallVector<const LoadInst *, 16> Loads;
  for (const Instruction &I : instructions(F)) {
    if (const auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
      Loads.push_back(Load);
    else if (const auto *Call = dyn_cast<CallBase>(&I);
             Call && Deferred.contains(Call))
      continue;
    else if (I.mayWriteToMemory() && !findRule(I))
      (writesOnlyLibraryState(I, TLI) ? LibraryWriters : Writers)
          .push_back(&I);
  }
  // Loads times writers alias queries (and reachability queries for the
  // writers that alias): bounded, so that huge functions stay cheap to
  // compile. Loads beyond the budget are cached (correct, only larger).
  constexpr uint64_t QueryBudget = 1 << 21;
  constexpr uint64_t ReachabilityCost = 16;
  uint64_t Queries = 0;
  // Across iterations: x[i] stored in one iteration is x[i-1] loaded in
  // another, though the two never alias within one.
  BatchAAResults BatchAA(AA);
  BatchAA.enableCrossIterationMode();
  SmallPtrSet<const LoadInst *, 16> Reloadable;
  for (const LoadInst *Load : Loads) {
    MemoryLocation Loc = MemoryLocation::get(Load);
    // A writer that runs only before the load cannot change what the
    // reverse finds there.
    auto Overwrites = [&](const Instruction *W) {
      ++Queries;
      if (!isModSet(BatchAA.getModRefInfo(W, Loc)))
        return false;
      Queries += ReachabilityCost;
      return isPotentiallyReachable(Load, W, nullptr, &DT, &LI);
    };
    if (none_of(Writers, Overwrites) &&
        (!mayReadGlobal(*Load) || none_of(LibraryWriters, Overwrites)))
      Reloadable.insert(Load);
    if (Queries > QueryBudget)
      break;
  }
  return Reloadable;
}

} // namespace adjoint
