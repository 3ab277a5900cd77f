//===- RetypeAccesses.cpp - Floats copied through integers ------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Optimized code copies floating-point data through integers: a small
// struct assignment becomes `load i64` + `store i64`, a swap of doubles
// too. Activity analysis and synthesis follow derivatives through
// floating-point values only, so once the type analysis has established
// that such an access moves floats, the access is rewritten to load or
// store them as floats, with a bitcast for any integer use left.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The floating-point type (a scalar, or a vector of one kind) whose bytes
/// an integer access of type \p IntTy moves, per \p Bytes; null if the
/// bytes are not all floats of one kind filling the access exactly.
Type *floatTypeOf(Type *IntTy, const ByteSummary &Bytes,
                  const DataLayout &DL) {
  if (!IntTy->isIntegerTy() || !Bytes.isFloat())
    return nullptr;
  Type *Elt = Bytes.getFloatKind().getIRType(IntTy->getContext());
  if (!Elt)
    return nullptr;
  uint64_t Size = DL.getTypeStoreSize(IntTy), EltSize = DL.getTypeStoreSize(Elt);
  if (EltSize == 0 || Size % EltSize != 0 ||
      DL.getTypeAllocSize(Elt) != EltSize)
    return nullptr;
  Type *Ty = Size == EltSize ? Elt : FixedVectorType::get(Elt, Size / EltSize);
  return DL.getTypeSizeInBits(Ty) == DL.getTypeSizeInBits(IntTy) ? Ty : nullptr;
}

} // namespace

bool retypeFloatAccesses(Function &F, const FunctionTypeInfo &Types) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<std::pair<LoadInst *, Type *>, 8> Loads;
  SmallVector<std::pair<StoreInst *, Type *>, 8> Stores;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple()) {
      if (Type *T = floatTypeOf(LI->getType(), Types.queryAccess(*LI), DL))
        Loads.push_back({LI, T});
    } else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isSimple()) {
      Type *IntTy = SI->getValueOperand()->getType();
      if (Type *T = floatTypeOf(IntTy, Types.queryAccess(*SI), DL))
        Stores.push_back({SI, T});
    }
  }

  for (auto [LI, T] : Loads) {
    IRBuilder<> B(LI);
    LoadInst *Float = B.CreateAlignedLoad(T, LI->getPointerOperand(),
                                          LI->getAlign(), LI->getName());
    Float->copyMetadata(*LI);
    LI->replaceAllUsesWith(B.CreateBitCast(Float, LI->getType()));
    LI->eraseFromParent();
  }
  for (auto [SI, T] : Stores) {
    IRBuilder<> B(SI);
    Value *Val = SI->getValueOperand();
    // The bitcast that a retyped load left: store the float itself.
    if (auto *Cast = dyn_cast<BitCastInst>(Val);
        Cast && Cast->getOperand(0)->getType() == T)
      Val = Cast->getOperand(0);
    else
      Val = B.CreateBitCast(Val, T);
    StoreInst *Float = B.CreateAlignedStore(Val, SI->getPointerOperand(),
                                            SI->getAlign());
    Float->copyMetadata(*SI);
    SI->eraseFromParent();
  }
  // Store-to-load forwarding may have left `bitcast i64 %v to double` of a
  // copied value; with %v now a bitcast of a double, that round trip is the
  // double itself. Bitcasts that only fed retyped stores are dead.
  SmallVector<WeakTrackingVH, 8> Casts;
  for (Instruction &I : instructions(F))
    if (auto *Outer = dyn_cast<BitCastInst>(&I)) {
      if (auto *Inner = dyn_cast<BitCastInst>(Outer->getOperand(0));
          Inner && Inner->getSrcTy() == Outer->getDestTy())
        Outer->replaceAllUsesWith(Inner->getOperand(0));
      Casts.push_back(Outer);
    }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Casts);
  return !Loads.empty() || !Stores.empty();
}

} // namespace adjoint
