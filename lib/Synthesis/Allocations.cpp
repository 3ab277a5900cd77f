//===- Allocations.cpp - Heap allocation functions --------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IRBuilder.h"
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

} // namespace

bool isAllocation(const CallBase &Call) {
  return StringSwitch<bool>(calleeName(Call))
      .Cases("malloc", "calloc", "aligned_alloc", true)
      .Cases("_Znwm", "_Znam", true) // operator new, new[]
      .Default(false);
}

bool isReallocation(const CallBase &Call) {
  return calleeName(Call) == "realloc";
}

bool findResizedBlock(const CallBase &Realloc, const CallBase *&Alloc) {
  const Value *Old = getUnderlyingObject(Realloc.getArgOperand(0));
  Alloc = dyn_cast<CallBase>(Old);
  if (isa<ConstantPointerNull>(Old))
    return true;
  return Alloc && (isAllocation(*Alloc) || isReallocation(*Alloc));
}

Value *resizedBlockSize(const CallBase &Realloc, IRBuilderBase &B) {
  const CallBase *Alloc;
  if (!findResizedBlock(Realloc, Alloc))
    return nullptr;
  if (!Alloc)
    return B.getInt64(0);
  return B.CreateZExtOrTrunc(allocationSize(*Alloc, B), B.getInt64Ty());
}

Constant *constantReallocCopySize(const CallBase &Realloc) {
  // With no insertion point the builder only folds constants; a size known
  // only at run time would need an instruction, so ask only for constants.
  const CallBase *Alloc;
  if (!findResizedBlock(Realloc, Alloc))
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
  for (const User *U : Alloc.users())
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && (isDeallocation(*Call) || isReallocation(*Call)) &&
        Call->getArgOperand(0) == &Alloc)
      return const_cast<CallBase *>(Call);
  return nullptr;
}

void freeShadow(CallBase &Dealloc, Value *Shadow, IRBuilderBase &B) {
  if (isReallocation(Dealloc)) { // Its shadow block came from calloc.
    Module *M = Dealloc.getModule();
    B.CreateCall(M->getOrInsertFunction("free", B.getVoidTy(),
                                        Shadow->getType()),
                 {Shadow});
    return;
  }
  auto *Free = cast<CallBase>(Dealloc.clone());
  Free->setArgOperand(0, Shadow);
  B.Insert(Free);
}

} // namespace adjoint
