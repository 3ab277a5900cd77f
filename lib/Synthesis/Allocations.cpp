//===- Allocations.cpp - Heap allocation functions --------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"

#include "adjoint/Synthesis/CachePool.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace adjoint {

namespace {

StringRef calleeName(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F && F->isDeclaration() ? F->getName() : "";
}

/// The size in bytes of the block \p Alloc returns.
Value *allocationSize(const CallBase &Alloc, IRBuilderBase &B) {
  StringRef Name = calleeName(Alloc);
  if (Name == "realloc")
    return Alloc.getArgOperand(1);
  if (Name == "calloc")
    return B.CreateMul(Alloc.getArgOperand(0), Alloc.getArgOperand(1));
  if (Name == "aligned_alloc")
    return Alloc.getArgOperand(1);
  return Alloc.getArgOperand(0);
}

/// operator delete(void *, size_t, ...) and delete[]: the size of the block
/// is operand 1.
bool isSizedDeallocation(const CallBase &Dealloc) {
  StringRef Name = calleeName(Dealloc);
  return Name.starts_with("_ZdlPvm") || Name.starts_with("_ZdaPvm");
}

/// The deletes that take the block's std::align_val_t.
bool isAlignedDeallocation(const CallBase &Dealloc) {
  return calleeName(Dealloc).contains("St11align_val_t");
}

/// operator new(size_t, std::align_val_t, ...): the alignment is operand 1.
bool isAlignedAllocation(const CallBase &Alloc) {
  StringRef Name = calleeName(Alloc);
  return Name.starts_with("_Zn") && Name.contains("St11align_val_t");
}

} // namespace

bool isAllocation(const CallBase &Call) {
  return StringSwitch<bool>(calleeName(Call))
      .Cases("malloc", "calloc", "aligned_alloc", true)
      .Cases("_Znwm", "_Znam", true) // operator new, new[]
      // The aligned (alignas beyond 16 bytes) and std::nothrow forms.
      .Cases("_ZnwmSt11align_val_t", "_ZnamSt11align_val_t", true)
      .Cases("_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t", true)
      .Cases("_ZnwmSt11align_val_tRKSt9nothrow_t",
             "_ZnamSt11align_val_tRKSt9nothrow_t", true)
      .Case(CacheTakeName, true) // A gradient's caches, in a gradient.
      .Default(false);
}

bool isReallocation(const CallBase &Call) {
  return calleeName(Call) == "realloc";
}

namespace {

/// The call that allocated (or resized) the block \p Realloc resizes, when
/// that is one call; null otherwise (also for a null pointer).
const CallBase *directlyResizedBlock(const CallBase &Realloc) {
  const auto *Alloc = dyn_cast<CallBase>(
      getUnderlyingObject(Realloc.getArgOperand(0)));
  return Alloc && (isAllocation(*Alloc) || isReallocation(*Alloc)) ? Alloc
                                                                   : nullptr;
}

CallBase *findDeallocationAtDepth(const CallBase &Alloc, unsigned Depth);

/// Is \p Holder memory that is gone when the function returns (a local, or
/// a heap block the function frees)? Then nothing outside the function can
/// reach a block through the address stored in it.
bool diesInFunction(const Value *Holder, unsigned Depth) {
  if (isa<AllocaInst>(Holder))
    return true;
  const auto *Call = dyn_cast<CallBase>(Holder);
  constexpr unsigned MaxDepth = 4; // Nested containers, levels deep.
  return Call && (isAllocation(*Call) || isReallocation(*Call)) &&
         Depth < MaxDepth && findDeallocationAtDepth(*Call, Depth + 1);
}

/// A block whose address is kept in memory (the rows of a
/// std::vector<std::vector<double>>) is freed through a pointer loaded back
/// from there: the first deallocation in \p F of a pointer loaded from one
/// of \p Holders, the objects the block's address was stored into, when
/// that memory dies in the function too.
CallBase *findDeallocationThroughMemory(const Function &F,
                                        ArrayRef<const Value *> Holders,
                                        unsigned Depth) {
  SmallPtrSet<const Value *, 4> Holding;
  for (const Value *H : Holders)
    if (diesInFunction(H, Depth))
      Holding.insert(H);
  if (Holding.empty())
    return nullptr;
  for (const Instruction &I : instructions(F)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || !(isDeallocation(*Call) || isReallocation(*Call)))
      continue;
    const auto *Load = dyn_cast<LoadInst>(Call->getArgOperand(0));
    if (!Load)
      continue;
    SmallVector<const Value *, 4> From;
    getUnderlyingObjects(Load->getPointerOperand(), From);
    if (any_of(From, [&](const Value *O) { return Holding.contains(O); }))
      return const_cast<CallBase *>(Call);
  }
  return nullptr;
}

CallBase *findDeallocationAtDepth(const CallBase &Alloc, unsigned Depth) {
  // Through phis and selects: two buffers swapped in a loop are freed
  // under each other's names.
  SmallVector<const Value *, 8> Worklist = {&Alloc};
  SmallPtrSet<const Value *, 8> Seen = {&Alloc};
  SmallVector<const Value *, 4> Holders;
  while (!Worklist.empty()) {
    const Value *Ptr = Worklist.pop_back_val();
    for (const User *U : Ptr->users()) {
      if (const auto *Call = dyn_cast<CallBase>(U);
          Call && (isDeallocation(*Call) || isReallocation(*Call)) &&
          Call->getArgOperand(0) == Ptr)
        return const_cast<CallBase *>(Call);
      if (isa<PHINode, SelectInst>(U) && Seen.insert(U).second)
        Worklist.push_back(U);
      if (const auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getValueOperand() == Ptr)
        getUnderlyingObjects(SI->getPointerOperand(), Holders);
    }
  }
  return findDeallocationThroughMemory(*Alloc.getFunction(), Holders, Depth);
}

} // namespace

bool hasKnownBlockSize(const Value *Ptr) {
  SmallVector<const Value *, 8> Worklist = {Ptr};
  SmallPtrSet<const Value *, 8> Seen = {Ptr};
  while (!Worklist.empty()) {
    const Value *V = getUnderlyingObject(Worklist.pop_back_val());
    if (isa<ConstantPointerNull>(V))
      continue;
    if (const auto *Call = dyn_cast<CallBase>(V);
        Call && (isAllocation(*Call) || isReallocation(*Call)))
      continue;
    if (!isa<PHINode, SelectInst>(V))
      return false;
    for (const Value *Op : cast<Instruction>(V)->operands())
      if (Op->getType()->isPointerTy() && Seen.insert(Op).second)
        Worklist.push_back(Op);
  }
  return true;
}

Value *BlockSizes::sizeOf(Value *Ptr) {
  Ptr = const_cast<Value *>(getUnderlyingObject(Ptr));
  if (Value *Known = Sizes.lookup(Ptr))
    return Known;
  Type *I64 = Type::getInt64Ty(Ptr->getContext());
  if (isa<ConstantPointerNull>(Ptr))
    return ConstantInt::get(I64, 0);
  if (auto *Phi = dyn_cast<PHINode>(Ptr)) {
    IRBuilder<> B(Phi);
    PHINode *Size = B.CreatePHI(I64, Phi->getNumIncomingValues(),
                                Phi->getName() + ".size");
    Sizes[Phi] = Size; // Before the incoming sizes: loops lead back here.
    for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I)
      Size->addIncoming(sizeOf(Phi->getIncomingValue(I)),
                        Phi->getIncomingBlock(I));
    return Size;
  }
  auto *I = cast<Instruction>(Ptr);
  IRBuilder<> B(I->getNextNode());
  Value *Size;
  if (auto *Sel = dyn_cast<SelectInst>(I))
    Size = B.CreateSelect(Sel->getCondition(), sizeOf(Sel->getTrueValue()),
                          sizeOf(Sel->getFalseValue()));
  else
    Size = B.CreateZExtOrTrunc(allocationSize(*cast<CallBase>(I), B), I64);
  Sizes[Ptr] = Size;
  return Size;
}

Constant *constantReallocCopySize(const CallBase &Realloc) {
  // With no insertion point the builder only folds constants; a size known
  // only at run time would need an instruction, so ask only for constants.
  const CallBase *Alloc = directlyResizedBlock(Realloc);
  bool IsNull = isa<ConstantPointerNull>(
      getUnderlyingObject(Realloc.getArgOperand(0)));
  if (!Alloc && !IsNull)
    return nullptr;
  IRBuilder<> Folder(Realloc.getContext());
  bool ConstantSize =
      !Alloc || all_of(Alloc->args(), [&](const Use &A) {
        return isa<Constant>(A.get()) || A->getType()->isPointerTy();
      });
  auto *OldBytes = dyn_cast_or_null<ConstantInt>(
      !ConstantSize ? nullptr
      : Alloc       ? allocationSize(*Alloc, Folder)
                    : Folder.getInt64(0));
  auto *NewBytes = dyn_cast<ConstantInt>(Realloc.getArgOperand(1));
  if (!OldBytes || !NewBytes)
    return nullptr;
  return Folder.getInt64(
      std::min(OldBytes->getZExtValue(), NewBytes->getZExtValue()));
}

Value *reallocateShadow(CallBase &Realloc, Value *OldShadow, Value *OldSize,
                        IRBuilderBase &B) {
  Module *M = Realloc.getModule();
  Type *Ptr = Realloc.getType(), *I64 = B.getInt64Ty();
  FunctionCallee Calloc = M->getOrInsertFunction("calloc", Ptr, I64, I64);
  Value *NewSize = B.CreateZExtOrTrunc(Realloc.getArgOperand(1), I64);
  Value *Shadow = B.CreateCall(Calloc, {B.getInt64(1), NewSize},
                               Realloc.getName() + ".shadow");
  if (!isa<ConstantPointerNull>(OldShadow))
    B.CreateMemCpy(Shadow, MaybeAlign(), OldShadow, MaybeAlign(),
                   B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, NewSize));
  return Shadow;
}

bool isDeallocation(const CallBase &Call) {
  return StringSwitch<bool>(calleeName(Call))
      .Case("free", true)
      .Cases("_ZdlPv", "_ZdlPvm", "_ZdaPv", "_ZdaPvm", true) // delete, []
      .Cases("_ZdlPvSt11align_val_t", "_ZdlPvmSt11align_val_t", true)
      .Cases("_ZdaPvSt11align_val_t", "_ZdaPvmSt11align_val_t", true)
      .Cases("_ZdlPvRKSt9nothrow_t", "_ZdaPvRKSt9nothrow_t", true)
      .Cases("_ZdlPvSt11align_val_tRKSt9nothrow_t",
             "_ZdaPvSt11align_val_tRKSt9nothrow_t", true)
      .Case(CacheGiveName, true)
      .Default(false);
}

Value *allocateShadow(CallBase &Alloc, IRBuilderBase &B) {
  auto *Shadow = cast<CallBase>(Alloc.clone());
  B.Insert(Shadow, Alloc.getName() + ".shadow");
  // Only calloc hands out zeroed memory.
  if (calleeName(Alloc) != "calloc")
    B.CreateMemSet(Shadow, B.getInt8(0), allocationSize(Alloc, B),
                   MaybeAlign());
  return Shadow;
}

CallBase *findDeallocation(const CallBase &Alloc) {
  return findDeallocationAtDepth(Alloc, 0);
}

CallInst *emitMalloc(Value *Size, IRBuilderBase &B, const Twine &Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(
      M.getOrInsertFunction("malloc", B.getPtrTy(), B.getInt64Ty()), {Size},
      Name);
}

void emitFree(Value *Block, IRBuilderBase &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(M.getOrInsertFunction("free", B.getVoidTy(), B.getPtrTy()),
               {Block});
}

void freeShadow(CallBase &Dealloc, Value *Shadow, IRBuilderBase &B) {
  // A realloc that frees its block: the shadow block came from calloc.
  if (isReallocation(Dealloc))
    return emitFree(Shadow, B);
  auto *Free = cast<CallBase>(Dealloc.clone());
  Free->setArgOperand(0, Shadow);
  B.Insert(Free);
}

void freeShadow(const CallBase &Alloc, CallBase &Dealloc, Value *Shadow,
                IRBuilderBase &B) {
  // Its shadow block came from calloc.
  if (isReallocation(Dealloc) || isReallocation(Alloc))
    return emitFree(Shadow, B);
  auto *Free = cast<CallBase>(Dealloc.clone());
  Free->setArgOperand(0, Shadow);
  // The sized and aligned deletes: the shadow block has the size and the
  // alignment of the allocation, known where the reverse frees it. The
  // deallocation's own operands may not be: a std::vector that grows in a
  // loop frees its first block there, with a size computed in the loop.
  if (isSizedDeallocation(Dealloc))
    Free->setArgOperand(
        1, B.CreateZExtOrTrunc(allocationSize(Alloc, B),
                               Dealloc.getArgOperand(1)->getType()));
  if (isAlignedDeallocation(Dealloc) && isAlignedAllocation(Alloc))
    Free->setArgOperand(isSizedDeallocation(Dealloc) ? 2 : 1,
                        Alloc.getArgOperand(1));
  B.Insert(Free);
}

} // namespace adjoint
