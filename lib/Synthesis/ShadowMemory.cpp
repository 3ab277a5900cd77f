//===- ShadowMemory.cpp - Shadow pointers of the forward pass ---------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ShadowMemory.h"
#include "Allocations.h"

#include "adjoint/Support/TypeUtils.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adjoint {

Value *ShadowMemory::oldBlockSize(const CallBase &Realloc) {
  return Sizes.sizeOf(Realloc.getArgOperand(0));
}

bool isOwnShadow(const Value *Ptr) {
  if (isa<ConstantPointerNull>(Ptr) || isa<UndefValue>(Ptr))
    return true;
  // A function's address is code: a std::function stores it next to the
  // data it captures. A vtable is constant and holds no floating-point
  // data, so nothing is ever accumulated through a pointer into it; a C++
  // object stores its address next to its fields.
  if (!isa<Constant>(Ptr))
    return false;
  const Value *Object = getUnderlyingObject(Ptr);
  if (isa<Function>(Object))
    return true;
  const auto *GV = dyn_cast<GlobalVariable>(Object);
  return GV && GV->isConstant() && !containsFloat(GV->getValueType());
}

Value *ShadowMemory::shadowOf(const Value *Ptr) const {
  if (isOwnShadow(Ptr))
    return const_cast<Value *>(Ptr);
  auto It = Shadows.find(Ptr);
  assert(It != Shadows.end() && "checkDifferentiable admits only shadowable "
                                "pointers");
  return It->second;
}

void ShadowMemory::build(Function &F) {
  // Reverse post-order: a pointer's operands get their shadows first (phis,
  // whose incoming values may come later, are filled in at the end).
  ReversePostOrderTraversal<Function *> RPOT(&F);
  SmallVector<PHINode *, 8> Phis;
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (auto *Phi = dyn_cast<PHINode>(&I); Phi && IsActive(Phi) &&
                                            Phi->getType()->isPointerTy()) {
        IRBuilder<> B(Phi);
        Shadows[Phi] = B.CreatePHI(Phi->getType(), Phi->getNumIncomingValues(),
                                   Phi->getName() + ".shadow");
        Phis.push_back(Phi);
        continue;
      }
      shadowInstruction(I);
    }
  for (PHINode *Phi : Phis) {
    auto *Shadow = cast<PHINode>(Shadows[Phi]);
    for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I)
      Shadow->addIncoming(shadowOf(Phi->getIncomingValue(I)),
                          Phi->getIncomingBlock(I));
  }
}

void ShadowMemory::shadowInstruction(Instruction &I) {
  // A store of an active pointer into active memory: the shadow memory
  // holds the pointer's shadow, for whoever loads it back.
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *Val = SI->getValueOperand();
    // Constants that are their own shadow (functions, vtables) are mirrored
    // too, so that the shadow memory reads like the primal one.
    bool Mirrored = IsActive(Val) || (isOwnShadow(Val) &&
                                      !isa<ConstantPointerNull>(Val) &&
                                      !isa<UndefValue>(Val));
    if (Val->getType()->isPointerTy() && Mirrored &&
        IsActive(SI->getPointerOperand())) {
      IRBuilder<> B(SI->getNextNode());
      B.CreateAlignedStore(shadowOf(Val), shadowOf(SI->getPointerOperand()),
                           SI->getAlign());
    }
    return;
  }
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && !isAllocation(*Call) && !isReallocation(*Call)) {
    OnCall(*Call);
    return;
  }
  if (!I.getType()->isPointerTy() || !IsActive(&I))
    return;

  IRBuilder<> B(I.getNextNode());
  std::string Name = (I.getName() + ".shadow").str();
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    // Shadow stack memory starts at zero: nothing has been accumulated.
    auto *Shadow = cast<AllocaInst>(AI->clone());
    Shadow->insertAfter(AI);
    Shadow->setName(Name);
    B.SetInsertPoint(Shadow->getNextNode());
    const DataLayout &DL = AI->getDataLayout();
    Value *Size = B.CreateMul(
        B.CreateZExtOrTrunc(AI->getArraySize(), B.getInt64Ty()),
        B.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())));
    B.CreateMemSet(Shadow, B.getInt8(0), Size, AI->getAlign());
    Shadows[AI] = Shadow;
    return;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (isReallocation(*Call)) {
      Value *Old = Call->getArgOperand(0);
      Value *OldShadow = IsActive(Old) ? shadowOf(Old)
                                       : ConstantPointerNull::get(
                                             cast<PointerType>(Old->getType()));
      Shadows[Call] =
          reallocateShadow(*Call, OldShadow, oldBlockSize(*Call), B);
      return;
    }
    assert(isAllocation(*Call) && "checkDifferentiable admits only these");
    Shadows[Call] = allocateShadow(*Call, B);
    return;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    // A pointer read from active memory: its shadow is in shadow memory.
    Shadows[LI] = B.CreateAlignedLoad(LI->getType(),
                                      shadowOf(LI->getPointerOperand()),
                                      LI->getAlign(), Name);
    return;
  }
  // GEPs, casts and selects: the same computation on shadows.
  Instruction *Shadow = I.clone();
  for (Use &Op : Shadow->operands())
    if (Op->getType()->isPointerTy())
      Op.set(shadowOf(Op.get()));
  B.Insert(Shadow, Name);
  Shadows[&I] = Shadow;
}

} // namespace adjoint
