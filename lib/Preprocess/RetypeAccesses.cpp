//===- RetypeAccesses.cpp - Floats and pointers copied as integers ----------===//
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
// Pointers too: a pointer moved as an integer (a std::unique_ptr moved
// into a std::vector becomes `store i64 (ptrtoint ptr %p)`) would leave
// its shadow behind, so such accesses load and store pointers.
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

/// The pointer type whose bytes an integer access of type \p IntTy moves,
/// per \p Bytes: one pointer filling it; null otherwise.
Type *pointerTypeOf(Type *IntTy, const ByteSummary &Bytes,
                    const DataLayout &DL) {
  if (!IntTy->isIntegerTy())
    return nullptr;
  ArrayRef<TypeSegment> Segments = Bytes.segments();
  if (Segments.size() != 1 || Segments.front().Type != ConcreteType::Pointer)
    return nullptr;
  Type *Ptr = PointerType::get(IntTy->getContext(), 0);
  return DL.getTypeStoreSize(IntTy) == DL.getTypeStoreSize(Ptr) ? Ptr
                                                                 : nullptr;
}

/// What an integer access should move instead, per the type analysis.
Type *retypedAccessType(Type *IntTy, const ByteSummary &Bytes,
                        const DataLayout &DL) {
  if (Type *T = floatTypeOf(IntTy, Bytes, DL))
    return T;
  return pointerTypeOf(IntTy, Bytes, DL);
}

/// How many pointers an access of the integer vector type \p T moves, one
/// per lane, per \p Bytes (the vectorizers copy arrays of pointers as
/// <2 x i64>); 0 if it does not.
unsigned pointerLanesOf(Type *T, const ByteSummary &Bytes,
                        const DataLayout &DL) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  if (!VT || !VT->getElementType()->isIntegerTy() ||
      DL.getTypeSizeInBits(VT->getElementType()) !=
          DL.getPointerSizeInBits() ||
      Bytes.segments().empty() ||
      !all_of(Bytes.segments(), [](const TypeSegment &S) {
        return S.Type == ConcreteType::Pointer;
      }))
    return 0;
  return VT->getNumElements();
}

/// Lane \p Lane of the vector \p V when an insertelement chain builds it.
Value *insertedLane(Value *V, unsigned Lane) {
  while (auto *IE = dyn_cast<InsertElementInst>(V)) {
    auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2));
    if (!Idx)
      return nullptr;
    if (Idx->getZExtValue() == Lane)
      return IE->getOperand(1);
    V = IE->getOperand(0);
  }
  return nullptr;
}

/// Rewrites the access of \p I (a load or store of a vector of N integers
/// that hold pointers) into N pointer accesses, so that each pointer's
/// shadow can follow it. A load's integer vector is rebuilt for its uses; a
/// store takes each lane's pointer back (the lanes of a rewritten load are
/// pointers again).
void scalarizePointerLanes(Instruction &I, unsigned Lanes,
                           SmallVectorImpl<WeakTrackingVH> &Dead) {
  const DataLayout &DL = I.getDataLayout();
  IRBuilder<> B(&I);
  Type *Ptr = B.getPtrTy();
  uint64_t Size = DL.getTypeStoreSize(Ptr);
  auto *Load = dyn_cast<LoadInst>(&I);
  auto *Store = dyn_cast<StoreInst>(&I);
  Value *Addr = Load ? Load->getPointerOperand() : Store->getPointerOperand();
  Align Alignment = Load ? Load->getAlign() : Store->getAlign();
  Value *Vector = Load ? static_cast<Value *>(PoisonValue::get(Load->getType()))
                       : Store->getValueOperand();
  Type *Elt = cast<VectorType>(Vector->getType())->getElementType();
  for (unsigned Lane = 0; Lane != Lanes; ++Lane) {
    Value *At = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Addr, Lane * Size);
    Align LaneAlign = commonAlignment(Alignment, Lane * Size);
    if (Load) {
      LoadInst *P = B.CreateAlignedLoad(Ptr, At, LaneAlign);
      P->copyMetadata(*Load);
      Vector = B.CreateInsertElement(Vector, B.CreatePtrToInt(P, Elt), Lane);
      continue;
    }
    Value *P;
    Value *Bits = insertedLane(Vector, Lane);
    if (auto *Cast = dyn_cast_or_null<PtrToIntInst>(Bits);
        Cast && Cast->getSrcTy() == Ptr)
      P = Cast->getPointerOperand();
    else
      P = B.CreateIntToPtr(Bits ? Bits : B.CreateExtractElement(Vector, Lane),
                           Ptr);
    B.CreateAlignedStore(P, At, LaneAlign)->copyMetadata(*Store);
    Dead.push_back(Vector);
  }
  if (Load)
    Load->replaceAllUsesWith(Vector);
  I.eraseFromParent();
}

/// The pointer whose bits \p SI stores as an integer of its own size,
/// whatever the type analysis says; null otherwise.
Value *storedPointerBits(StoreInst &SI, const DataLayout &DL) {
  auto *Cast = dyn_cast<PtrToIntInst>(SI.getValueOperand());
  if (!Cast || !Cast->getSrcTy()->isPointerTy() ||
      DL.getTypeSizeInBits(Cast->getSrcTy()) !=
          DL.getTypeSizeInBits(Cast->getDestTy()))
    return nullptr;
  return Cast->getPointerOperand();
}

} // namespace

bool retypeFloatAccesses(Function &F, const FunctionTypeInfo &Types) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<std::pair<LoadInst *, Type *>, 8> Loads;
  SmallVector<std::pair<StoreInst *, Type *>, 8> Stores;
  SmallVector<std::pair<LoadInst *, unsigned>, 4> LaneLoads;
  SmallVector<std::pair<StoreInst *, unsigned>, 4> LaneStores;
  for (Instruction &I : instructions(F)) {
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple()) {
      ByteSummary Bytes = Types.queryAccess(*LI);
      if (Type *T = retypedAccessType(LI->getType(), Bytes, DL))
        Loads.push_back({LI, T});
      else if (unsigned N = pointerLanesOf(LI->getType(), Bytes, DL))
        LaneLoads.push_back({LI, N});
    } else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isSimple()) {
      Type *IntTy = SI->getValueOperand()->getType();
      ByteSummary Bytes = Types.queryAccess(*SI);
      if (Value *Ptr = storedPointerBits(*SI, DL))
        Stores.push_back({SI, Ptr->getType()});
      else if (Type *T = retypedAccessType(IntTy, Bytes, DL))
        Stores.push_back({SI, T});
      else if (unsigned N = pointerLanesOf(IntTy, Bytes, DL))
        LaneStores.push_back({SI, N});
    }
  }
  // Vectors of pointers moved as integers: one pointer access per lane.
  // Loads first, so that the stores of what they loaded find the pointers.
  SmallVector<WeakTrackingVH, 8> DeadLanes;
  for (auto [LI, N] : LaneLoads)
    scalarizePointerLanes(*LI, N, DeadLanes);
  for (auto [SI, N] : LaneStores)
    scalarizePointerLanes(*SI, N, DeadLanes);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(DeadLanes);

  for (auto [LI, T] : Loads) {
    IRBuilder<> B(LI);
    LoadInst *Float = B.CreateAlignedLoad(T, LI->getPointerOperand(),
                                          LI->getAlign(), LI->getName());
    Float->copyMetadata(*LI);
    LI->replaceAllUsesWith(B.CreateBitOrPointerCast(Float, LI->getType()));
    LI->eraseFromParent();
  }
  for (auto [SI, T] : Stores) {
    IRBuilder<> B(SI);
    Value *Val = SI->getValueOperand();
    // The cast that a retyped load left, or a pointer's ptrtoint: store the
    // float or the pointer itself.
    if (auto *Cast = dyn_cast<CastInst>(Val);
        Cast && (isa<BitCastInst>(Cast) || isa<PtrToIntInst>(Cast)) &&
        Cast->getOperand(0)->getType() == T)
      Val = Cast->getOperand(0);
    else
      Val = B.CreateBitOrPointerCast(Val, T);
    StoreInst *Float = B.CreateAlignedStore(Val, SI->getPointerOperand(),
                                            SI->getAlign());
    Float->copyMetadata(*SI);
    SI->eraseFromParent();
  }
  // Store-to-load forwarding may have left `bitcast i64 %v to double` of a
  // copied value; with %v now a bitcast of a double, that round trip is the
  // double itself (likewise inttoptr of a ptrtoint). Casts that only fed
  // retyped stores are dead.
  auto IsRetypingCast = [](const Value *V) {
    return isa<BitCastInst>(V) || isa<PtrToIntInst>(V) || isa<IntToPtrInst>(V);
  };
  SmallVector<WeakTrackingVH, 8> Casts;
  for (Instruction &I : instructions(F))
    if (IsRetypingCast(&I)) {
      auto *Outer = cast<CastInst>(&I);
      if (auto *Inner = dyn_cast<CastInst>(Outer->getOperand(0));
          Inner && IsRetypingCast(Inner) &&
          Inner->getSrcTy() == Outer->getDestTy())
        Outer->replaceAllUsesWith(Inner->getOperand(0));
      Casts.push_back(Outer);
    }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Casts);
  return !Loads.empty() || !Stores.empty() || !LaneLoads.empty() ||
         !LaneStores.empty();
}

} // namespace adjoint
