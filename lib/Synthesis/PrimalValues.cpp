//===- PrimalValues.cpp - Primal values where the reverse needs them --------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "PrimalValues.h"
#include "adjoint/Synthesis/CachePool.h"
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

/// The most records a count may size a cache array with before the loop
/// runs; beyond it the count is taken for garbage or a mere bound.
constexpr uint64_t MaxPlausibleRecords = uint64_t(1) << 26;

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
  /// The address of \p V's element in the record of iteration \p Index.
  Value *elementAddress(Instruction *V, Value *Index, IRBuilderBase &B);
  void emitAllocation(const Loop &L);
  void emitStore(Instruction *V, const Loop &L);
  void emitFrees();

  const ReverseCode &Code;
  CachePlan Plan;
  IRBuilder<> Entry;
  /// Each loop's cache: one array of records, a record per iteration
  /// holding every value the loop caches (one allocation per loop, and the
  /// values of an iteration side by side).
  struct LoopCache {
    AllocaInst *Slot;    ///< Holds the array.
    uint64_t RecordSize; ///< A multiple of every element's alignment.
    SmallVector<Instruction *, 4> Values;
  };
  MapVector<const Loop *, LoopCache> Caches;
  DenseMap<const Instruction *, uint64_t> Offsets; ///< Within the record.
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
  for (Instruction *V : Plan.cachedValues())
    Caches[Plan.lookup(V)->InLoop].Values.push_back(V);
  PointerType *Ptr = Entry.getPtrTy();
  for (auto &[L, Cache] : Caches) {
    // Most aligned first: the record needs no padding between elements.
    SmallVector<std::pair<Instruction *, unsigned>, 4> Ordered;
    for (Instruction *V : Cache.Values)
      Ordered.push_back({V, Ordered.size()});
    llvm::sort(Ordered, [](const auto &A, const auto &B) {
      Align AA = cacheAlign(*A.first), BA = cacheAlign(*B.first);
      return AA != BA ? AA > BA : A.second < B.second;
    });
    for (unsigned I = 0; I != Ordered.size(); ++I)
      Cache.Values[I] = Ordered[I].first;
    uint64_t Size = 0;
    for (Instruction *V : Cache.Values) {
      Offsets[V] = alignTo(Size, cacheAlign(*V));
      Size = Offsets[V] + V->getDataLayout().getTypeAllocSize(V->getType());
    }
    Cache.RecordSize = alignTo(Size, cacheAlign(*Cache.Values.front()));
    Cache.Slot = Entry.CreateAlloca(
        Ptr, nullptr,
        "cache." + L->getHeader()->getName());
    Entry.CreateStore(ConstantPointerNull::get(Ptr), Cache.Slot);
  }
}

Value *PrimalValueProvider::elementAddress(Instruction *V, Value *Index,
                                           IRBuilderBase &B) {
  const LoopCache &Cache = Caches.find(Plan.lookup(V)->InLoop)->second;
  Value *Array = B.CreateLoad(B.getPtrTy(), Cache.Slot);
  Value *Byte = B.CreateAdd(B.CreateMul(Index, B.getInt64(Cache.RecordSize)),
                            B.getInt64(Offsets.lookup(V)));
  return B.CreateInBoundsGEP(B.getInt8Ty(), Array, Byte);
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
    Value *Element =
        elementAddress(D, Code.Loops.reverseIndex(*P->InLoop, B), B);
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
  for (auto &[L, Cache] : Caches) {
    emitAllocation(*L);
    for (Instruction *V : Cache.Values)
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

/// One allocation at the entry of the loop's nest when the nest's trip
/// counts are known there (for inner loops, a size that the growth check
/// below still guards);
/// otherwise an array that doubles whenever the iteration reaches its
/// capacity (O(log N) copies for N iterations).
void PrimalValueProvider::emitAllocation(const Loop &L) {
  Type *I64 = Entry.getInt64Ty(), *Ptr = Entry.getPtrTy();
  const LoopCache &Cache = Caches.find(&L)->second;
  AllocaInst *Slot = Cache.Slot;
  Constant *RecordSize = ConstantInt::get(I64, Cache.RecordSize);

  Value *Trips = Code.TripCounts.lookup(&L);
  // A constant bound is SCEV's when the count is loaded in the loop: all
  // it knows is the value range, and the trip count, one more than the
  // largest backedge count, wraps around to 0. No count at all: grow.
  if (auto *Bound = dyn_cast_or_null<ConstantInt>(Trips);
      Bound && (Bound->isZero() || Bound->getValue().ugt(MaxPlausibleRecords)))
    Trips = nullptr;
  AllocaInst *Capacity = nullptr;
  if (!Trips || !L.isOutermost()) {
    Capacity = Entry.CreateAlloca(I64, nullptr, "cache.capacity");
    Entry.CreateStore(ConstantInt::get(I64, 0), Capacity);
  }
  if (Trips) {
    IRBuilder<> B(L.getOutermostLoop()->getLoopPreheader()->getTerminator());
    if (Capacity) {
      // An inner loop's count is computed before the nest, where the guard
      // that protects its entry has not been tested: if the loop never
      // runs, the count can be garbage (n - 2 for n = 1). Such counts are
      // huge, so only a plausible one sizes the array; the growth check
      // stays.
      Trips = B.CreateSelect(
          B.CreateICmpULE(Trips, B.getInt64(MaxPlausibleRecords)), Trips,
          B.getInt64(0));
      B.CreateStore(Trips, Capacity);
    }
    B.CreateStore(
        emitCacheAllocation(B.CreateMul(Trips, RecordSize), B,
                            Slot->getName()),
        Slot);
  }
  if (!Capacity)
    return;
  IRBuilder<> B(Code.Loops.iterationStart(L));
  Instruction *Index = Code.Loops.forwardIndex(L);
  auto *Full = cast<Instruction>(
      B.CreateICmpUGE(Index, B.CreateLoad(I64, Capacity), "cache.full"));
  Growths.push_back({Full, [=](IRBuilderBase &G) {
    // Doubling from 64 records: iteration I needs capacity I + 1. The
    // new block comes from the pool, where the previous call's grown
    // block usually waits: its whole size becomes the capacity, so a
    // repeated gradient grows once, not log N times.
    Value *OldCapacity = G.CreateLoad(I64, Capacity);
    Value *Old = G.CreateLoad(Ptr, Slot);
    Value *Wanted = G.CreateBinaryIntrinsic(
        Intrinsic::umax, G.CreateShl(OldCapacity, 1), G.getInt64(64));
    Value *New = emitCacheAllocation(G.CreateMul(Wanted, RecordSize), G);
    G.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(),
                   G.CreateMul(OldCapacity, RecordSize));
    emitCacheRelease(Old, G);
    G.CreateStore(G.CreateUDiv(emitCacheBlockSize(New, G), RecordSize),
                  Capacity);
    G.CreateStore(New, Slot);
  }});
}

void PrimalValueProvider::emitStore(Instruction *V, const Loop &L) {
  Instruction *At = V->getNextNode();
  if (isa<PHINode>(V))
    At = V->getParent() == L.getHeader()
             ? Code.Loops.iterationStart(L)
             : &*V->getParent()->getFirstInsertionPt();
  IRBuilder<> B(At);
  B.CreateAlignedStore(V, elementAddress(V, Code.Loops.forwardIndex(L), B),
                       cacheAlign(*V));
}

void PrimalValueProvider::emitFrees() {
  if (Caches.empty())
    return;
  for (BasicBlock &BB : Code.Grad)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(Ret);
      for (auto &[L, Cache] : Caches)
        emitCacheRelease(B.CreateLoad(B.getPtrTy(), Cache.Slot), B);
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
