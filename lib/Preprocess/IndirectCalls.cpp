//===- IndirectCalls.cpp - Calls through known function pointers ------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// C++ calls through function pointers that the function itself stored: a
// std::function keeps its invoker and manager next to the callable it
// wraps, and at -O0 every use loads them back, often in another block than
// the store (a copy of a std::function loads the pointers of the original
// and stores them into the copy); a virtual call loads the object's vtable
// pointer, which its constructor stored, then the function from the
// vtable. Canonicalization (EarlyCSE) only forwards a store to a load in
// its own block, and GVN, which goes further, leaves loads alone in
// functions built for AddressSanitizer and stops at calls that may write
// errno (sin). So loads of pointers are forwarded here, walking up
// MemorySSA to the store that wrote them: when it must write exactly the
// location loaded, and what it writes is a constant (a function, a vtable,
// null), the load is that constant. Canonicalization then folds the null
// checks, reads the function out of a constant vtable, and makes the calls
// direct, to be inlined like any other; that may expose the next ones (the
// manager that destroys a std::function is loaded after the call to its
// invoker, which may have changed it as far as an unknown callee is
// concerned).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adjoint {

namespace {

/// How many memory accesses one query may visit. Descriptors are read
/// after the loops that compute array expressions (a model of the Fortran
/// runtime reads the type flang stored before them): their queries may go
/// further, and there are few of them.
constexpr unsigned WalkBudget = 256;
constexpr unsigned DescriptorWalkBudget = 8192;

/// Can \p V replace a load anywhere in its function? Constants can; with
/// \p Descriptors, so can arguments and the entry block's stack slots.
bool availableEverywhere(const Value *V, bool Descriptors) {
  if (isa<Constant>(V))
    return true;
  if (!Descriptors)
    return false;
  if (const auto *Slot = dyn_cast<AllocaInst>(V))
    return Slot->isStaticAlloca();
  return isa<Argument>(V);
}

/// What a load of \p Ty from \p Ptr reads of the constant \p Store writes,
/// if the store covers those bytes: the optimizer merges the stores of a
/// descriptor's rank, type and attribute into one store of <4 x i8>.
Constant *partOfStoredConstant(StoreInst &Store, const Value *Ptr, Type *Ty) {
  auto *Stored = dyn_cast<Constant>(Store.getValueOperand());
  if (!Stored || !Store.isSimple())
    return nullptr;
  const DataLayout &DL = Store.getDataLayout();
  int64_t StoreOffset = 0, LoadOffset = 0;
  const Value *StoreBase = GetPointerBaseWithConstantOffset(
      Store.getPointerOperand(), StoreOffset, DL);
  const Value *LoadBase = GetPointerBaseWithConstantOffset(Ptr, LoadOffset, DL);
  int64_t Offset = LoadOffset - StoreOffset;
  if (StoreBase != LoadBase || Offset < 0 ||
      uint64_t(Offset) + DL.getTypeStoreSize(Ty) >
          DL.getTypeStoreSize(Stored->getType()))
    return nullptr;
  return ConstantFoldLoadFromConst(Stored, Ty, APInt(64, Offset), DL);
}

/// Escape information for descriptors: a stack slot that the function only
/// loads from and stores to (through GEPs of it) never escapes. Capture
/// tracking gives up on objects with more than a hundred uses, which a
/// descriptor read by several inlined models has; this walk does not.
/// Other objects are left to EarliestEscapeInfo.
class SlotEscapes final : public CaptureInfo {
public:
  explicit SlotEscapes(DominatorTree &DT) : Earliest(DT) {}

  bool isNotCapturedBefore(const Value *Object, const Instruction *I,
                           bool OrAt) override {
    if (const auto *Slot = dyn_cast<AllocaInst>(Object)) {
      auto [It, Inserted] = OnlyAccessed.try_emplace(Slot, false);
      if (Inserted)
        It->second = onlyAccessed(*Slot);
      if (It->second)
        return true;
    }
    return Earliest.isNotCapturedBefore(Object, I, OrAt);
  }

private:
  static bool onlyAccessed(const AllocaInst &Slot) {
    SmallVector<const Value *, 16> Worklist = {&Slot};
    while (!Worklist.empty()) {
      const Value *P = Worklist.pop_back_val();
      for (const User *U : P->users()) {
        if (isa<GetElementPtrInst>(U)) {
          Worklist.push_back(U);
          continue;
        }
        if (const auto *Load = dyn_cast<LoadInst>(U); Load && Load->isSimple())
          continue;
        const auto *Store = dyn_cast<StoreInst>(U);
        if (!Store || !Store->isSimple() || Store->getValueOperand() == P)
          return false;
      }
    }
    return true;
  }

  EarliestEscapeInfo Earliest;
  DenseMap<const AllocaInst *, bool> OnlyAccessed;
};

/// Finds the constant pointer (a function, a vtable, null) that the memory
/// at a location holds (or, for descriptors, the integer, stack slot or
/// argument), walking up
/// MemorySSA from a load: past writes that cannot touch the location (with
/// escape information: a local whose address escapes only later cannot be
/// written by an earlier call), to the store that writes exactly it. At a
/// join, every incoming path must agree; a path that comes back around a
/// loop adds nothing the other paths do not already say.
class StoredConstantFinder {
public:
  StoredConstantFinder(MemorySSA &MSSA, BatchAAResults &AA, bool Descriptors)
      : MSSA(MSSA), AA(AA), Descriptors(Descriptors) {}

  Value *find(LoadInst &Load) {
    if (!Load.isSimple())
      return nullptr;
    if (Descriptors
            ? !isa<AllocaInst>(getUnderlyingObject(Load.getPointerOperand()))
            : !Load.getType()->isPointerTy())
      return nullptr;
    Visited.clear();
    Budget = Descriptors ? DescriptorWalkBudget : WalkBudget;
    std::optional<Value *> Found =
        walk(MSSA.getMemoryAccess(&Load)->getDefiningAccess(),
             MemoryLocation::get(&Load), Load.getType());
    return Found ? *Found : nullptr;
  }

private:
  /// The value stored, null when unknown, or nothing when \p MA was
  /// already visited (a cycle).
  std::optional<Value *> walk(MemoryAccess *MA, const MemoryLocation &Loc,
                              Type *Ty) {
    while (Budget-- != 0 && !MSSA.isLiveOnEntryDef(MA)) {
      if (auto *Phi = dyn_cast<MemoryPhi>(MA))
        return walkPhi(*Phi, Loc, Ty);
      auto *Def = cast<MemoryDef>(MA);
      Instruction *I = Def->getMemoryInst();
      if (auto *Store = dyn_cast<StoreInst>(I)) {
        AliasResult AR = AA.alias(MemoryLocation::get(Store), Loc);
        Value *Stored = Store->getValueOperand();
        if (AR == AliasResult::MustAlias && Store->isSimple() &&
            Stored->getType() == Ty)
          return availableEverywhere(Stored, Descriptors) ? Stored : nullptr;
        if (Descriptors && AR != AliasResult::NoAlias)
          return partOfStoredConstant(*Store, Loc.Ptr, Ty);
        if (AR != AliasResult::NoAlias)
          return nullptr;
      } else if (isModSet(AA.getModRefInfo(I, Loc))) {
        return nullptr;
      }
      MA = Def->getDefiningAccess();
    }
    return nullptr;
  }

  std::optional<Value *> walkPhi(MemoryPhi &Phi, const MemoryLocation &Loc,
                                 Type *Ty) {
    if (!Visited.insert(&Phi).second)
      return std::nullopt;
    std::optional<Value *> Agreed;
    for (Use &Incoming : Phi.incoming_values()) {
      std::optional<Value *> Found =
          walk(cast<MemoryAccess>(Incoming), Loc, Ty);
      if (!Found)
        continue;
      if (!*Found || (Agreed && *Agreed != *Found))
        return nullptr;
      Agreed = Found;
    }
    return Agreed;
  }

  MemorySSA &MSSA;
  BatchAAResults &AA;
  bool Descriptors;
  SmallPtrSet<const MemoryPhi *, 8> Visited;
  unsigned Budget = 0;
};

} // namespace

bool hasIndirectCalls(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I);
        Call && !Call->isInlineAsm() && !Call->getCalledFunction())
      return true;
  return false;
}

bool forwardStoredConstants(Function &F, FunctionAnalysisManager &FAM,
                            bool Descriptors) {
  MemorySSA &MSSA = FAM.getResult<MemorySSAAnalysis>(F).getMSSA();
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  EarliestEscapeInfo Escapes(DT);
  SlotEscapes DescriptorEscapes(DT);
  BatchAAResults AA(FAM.getResult<AAManager>(F),
                    Descriptors ? static_cast<CaptureInfo *>(&DescriptorEscapes)
                                : &Escapes);
  StoredConstantFinder Finder(MSSA, AA, Descriptors);
  SmallVector<std::pair<LoadInst *, Value *>, 8> Known;
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I))
      if (Value *V = Finder.find(*Load))
        Known.push_back({Load, V});
  for (auto [Load, V] : Known) {
    Load->replaceAllUsesWith(V);
    Load->eraseFromParent();
  }
  FAM.clear(F, F.getName());
  return !Known.empty();
}

} // namespace adjoint
