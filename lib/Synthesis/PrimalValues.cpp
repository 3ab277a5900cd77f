//===- PrimalValues.cpp - Primal values where the reverse needs them --------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "PrimalValues.h"
#include "ReverseLoops.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The alignment of cache elements: malloc and realloc only promise 16
/// bytes, less than a <4 x double> asks for.
Align cacheAlign(const Instruction &V) {
  const DataLayout &DL = V.getDataLayout();
  return std::min(DL.getABITypeAlign(V.getType()), Align(16));
}

class PrimalValueProvider {
public:
  PrimalValueProvider(const ReverseCode &Code,
                      CachePlan::RecomputePredicate CanRecompute)
      : Code(Code), Plan(collectNeeded(), Code.LI, CanRecompute),
        Entry(&Code.Grad.getEntryBlock(),
              Code.Grad.getEntryBlock().begin()) {}

  const CachePlan &plan() const { return Plan; }
  void createBuffers();
  bool rewriteUses();
  void emitCaches();

private:
  bool needsProviding(const Value *V) const {
    const auto *I = dyn_cast<Instruction>(V);
    return I && Code.ForwardBlocks.contains(I->getParent()) &&
           Code.LI.getLoopFor(I->getParent());
  }
  SmallVector<Instruction *, 16> collectNeeded() const;
  Value *provide(Instruction *D, Instruction *Before);
  Value *recompute(Instruction *D, Instruction *Before);
  void emitAllocation(const Loop &L, ArrayRef<Instruction *> Values);
  void emitStore(Instruction *V, const Loop &L);
  void emitFrees();

  const ReverseCode &Code;
  CachePlan Plan;
  IRBuilder<> Entry;
  /// The slot holding each cached value's array.
  MapVector<Instruction *, AllocaInst *> Buffers;
  /// What each reverse block already obtained.
  DenseMap<std::pair<BasicBlock *, Instruction *>, Value *> Provided;
  /// Growth checks, split into branches once everything else is emitted.
  SmallVector<std::pair<Instruction *, std::function<void(IRBuilderBase &)>>,
              4>
      Growths;
};

SmallVector<Instruction *, 16> PrimalValueProvider::collectNeeded() const {
  SmallSetVector<Instruction *, 16> Needed;
  for (BasicBlock &BB : Code.Grad) {
    if (Code.ForwardBlocks.contains(&BB))
      continue;
    for (Instruction &I : BB)
      for (Value *Op : I.operands())
        if (needsProviding(Op))
          Needed.insert(cast<Instruction>(Op));
  }
  return Needed.takeVector();
}

void PrimalValueProvider::createBuffers() {
  PointerType *Ptr = Entry.getPtrTy();
  for (Instruction *V : Plan.cachedValues()) {
    AllocaInst *Slot = Entry.CreateAlloca(Ptr, nullptr, V->getName() + ".cache");
    Entry.CreateStore(ConstantPointerNull::get(Ptr), Slot);
    Buffers[V] = Slot;
  }
}

bool PrimalValueProvider::rewriteUses() {
  for (BasicBlock &BB : Code.Grad) {
    if (Code.ForwardBlocks.contains(&BB))
      continue;
    BasicBlock *Mirror = Code.Mirrors.lookup(&BB);
    for (Instruction &I : make_early_inc_range(BB))
      for (Use &U : I.operands()) {
        if (!needsProviding(U.get()))
          continue;
        auto *D = cast<Instruction>(U.get());
        // Reverse code uses a loop's values only in the reverse of the loop
        // (LCSSA), and never through phis.
        if (!Mirror || isa<PHINode>(I) ||
            !Code.LI.getLoopFor(D->getParent())->contains(Mirror))
          return false;
        U.set(provide(D, &I));
      }
  }
  return true;
}

Value *PrimalValueProvider::provide(Instruction *D, Instruction *Before) {
  std::pair<BasicBlock *, Instruction *> Key{Before->getParent(), D};
  if (Value *Done = Provided.lookup(Key))
    return Done;
  const ValuePlan *P = Plan.lookup(D);
  assert(P && "the plan covers every value the reverse uses");
  IRBuilder<> B(Before);
  Value *V = nullptr;
  switch (P->Kind) {
  case ValuePlan::Counter:
    V = Code.Loops.reverseIteration(*P->InLoop, B);
    break;
  case ValuePlan::Cache: {
    Value *Buffer = B.CreateLoad(B.getPtrTy(), Buffers.lookup(D));
    Value *Element = B.CreateInBoundsGEP(
        D->getType(), Buffer, Code.Loops.reverseIndex(*P->InLoop, B));
    V = B.CreateAlignedLoad(D->getType(), Element, cacheAlign(*D),
                            D->getName() + ".cached");
    break;
  }
  case ValuePlan::Recompute:
    V = recompute(D, Before); // Provides D's operands first.
    break;
  }
  Provided[Key] = V;
  return V;
}

Value *PrimalValueProvider::recompute(Instruction *D, Instruction *Before) {
  Instruction *Copy = D->clone();
  // Scopes describe the forward pass's accesses, not the reverse's.
  Copy->setMetadata(LLVMContext::MD_alias_scope, nullptr);
  Copy->setMetadata(LLVMContext::MD_noalias, nullptr);
  for (Use &Op : Copy->operands())
    if (needsProviding(Op.get()))
      Op.set(provide(cast<Instruction>(Op.get()), Before));
  Copy->insertBefore(Before);
  Copy->setName(D->getName());
  return Copy;
}

void PrimalValueProvider::emitCaches() {
  MapVector<const Loop *, SmallVector<Instruction *, 4>> ByLoop;
  for (auto [V, Slot] : Buffers)
    ByLoop[Plan.lookup(V)->InLoop].push_back(V);
  for (auto &[L, Values] : ByLoop) {
    emitAllocation(*L, Values);
    for (Instruction *V : Values)
      emitStore(V, *L);
  }
  // Split the growth checks last: they change the forward blocks.
  MDNode *Unlikely = MDBuilder(Code.Grad.getContext()).createUnlikelyBranchWeights();
  for (auto &[Check, Grow] : Growths) {
    Instruction *Then =
        SplitBlockAndInsertIfThen(Check, Check->getNextNode(),
                                  /*Unreachable=*/false, Unlikely);
    IRBuilder<> B(Then);
    Grow(B);
  }
  emitFrees();
}

/// One allocation at the loop's entry when its trip count is known there;
/// otherwise arrays that double whenever the iteration reaches their
/// capacity (O(log N) reallocations for N iterations).
void PrimalValueProvider::emitAllocation(const Loop &L,
                                         ArrayRef<Instruction *> Values) {
  Module &M = *Code.Grad.getParent();
  const DataLayout &DL = M.getDataLayout();
  Type *I64 = Entry.getInt64Ty(), *Ptr = Entry.getPtrTy();
  auto ElementSize = [&](Instruction *V) {
    return ConstantInt::get(I64, DL.getTypeAllocSize(V->getType()));
  };

  if (Value *Trips = Code.TripCounts.lookup(&L)) {
    IRBuilder<> B(L.getLoopPreheader()->getTerminator());
    FunctionCallee Malloc = M.getOrInsertFunction("malloc", Ptr, I64);
    for (Instruction *V : Values)
      B.CreateStore(B.CreateCall(Malloc, {B.CreateMul(Trips, ElementSize(V))},
                                 V->getName() + ".cache"),
                    Buffers.lookup(V));
    return;
  }
  FunctionCallee Realloc = M.getOrInsertFunction("realloc", Ptr, Ptr, I64);
  AllocaInst *Capacity = Entry.CreateAlloca(I64, nullptr, "cache.capacity");
  Entry.CreateStore(ConstantInt::get(I64, 0), Capacity);
  IRBuilder<> B(Code.Loops.iterationStart(L));
  Instruction *Index = Code.Loops.forwardIndex(L);
  auto *Full = cast<Instruction>(
      B.CreateICmpUGE(Index, B.CreateLoad(I64, Capacity), "cache.full"));
  SmallVector<Instruction *, 4> Owned(Values);
  Growths.push_back({Full, [this, Capacity, Owned, Ptr, I64, Realloc,
                           ElementSize](IRBuilderBase &G) {
    // Doubling from 64 elements: iteration I needs capacity I + 1.
    Value *NewCapacity = G.CreateBinaryIntrinsic(
        Intrinsic::umax, G.CreateShl(G.CreateLoad(I64, Capacity), 1),
        G.getInt64(64));
    G.CreateStore(NewCapacity, Capacity);
    for (Instruction *V : Owned) {
      AllocaInst *Slot = Buffers.lookup(V);
      Value *Grown = G.CreateCall(
          Realloc, {G.CreateLoad(Ptr, Slot),
                    G.CreateMul(NewCapacity, ElementSize(V))});
      G.CreateStore(Grown, Slot);
    }
  }});
}

void PrimalValueProvider::emitStore(Instruction *V, const Loop &L) {
  Instruction *At = V->getNextNode();
  if (isa<PHINode>(V))
    At = V->getParent() == L.getHeader()
             ? Code.Loops.iterationStart(L)
             : &*V->getParent()->getFirstInsertionPt();
  IRBuilder<> B(At);
  Value *Buffer = B.CreateLoad(B.getPtrTy(), Buffers.lookup(V));
  B.CreateAlignedStore(
      V,
      B.CreateInBoundsGEP(V->getType(), Buffer, Code.Loops.forwardIndex(L)),
      cacheAlign(*V));
}

void PrimalValueProvider::emitFrees() {
  if (Buffers.empty())
    return;
  Module &M = *Code.Grad.getParent();
  FunctionCallee Free = M.getOrInsertFunction(
      "free", Type::getVoidTy(M.getContext()), Entry.getPtrTy());
  for (BasicBlock &BB : Code.Grad)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(Ret);
      for (auto [V, Slot] : Buffers)
        B.CreateCall(Free, {B.CreateLoad(B.getPtrTy(), Slot)});
    }
}

} // namespace

bool providePrimalValues(const ReverseCode &Code,
                         CachePlan::RecomputePredicate CanRecompute,
                         raw_ostream *PlanOut) {
  PrimalValueProvider Provider(Code, CanRecompute);
  if (PlanOut)
    Provider.plan().print(*PlanOut);
  Provider.createBuffers();
  if (!Provider.rewriteUses())
    return false;
  Provider.emitCaches();
  return true;
}

} // namespace adjoint
