//===- Transposes.cpp - Reverse of data movement ----------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Instructions that move values between vector lanes and aggregate fields
// are linear maps. Their reverse sends each lane or field of the result's
// adjoint back to where it came from: the transpose of the map.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/DerivativeRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Reverse of shufflevector: lane K of the result came from lane Mask[K] of
/// the concatenation of both operands; lanes may be used several times.
void transposeShuffle(ShuffleVectorInst &SV, Value *Adjoint, IRBuilderBase &B,
                      function_ref<void(unsigned, Value *)> Accumulate) {
  auto *OpTy = cast<FixedVectorType>(SV.getOperand(0)->getType());
  unsigned N = OpTy->getNumElements();
  Value *Shares[2] = {adjointZero(OpTy), adjointZero(OpTy)};
  bool Used[2] = {false, false};
  ArrayRef<int> Mask = SV.getShuffleMask();
  for (unsigned K = 0, E = Mask.size(); K != E; ++K) {
    if (Mask[K] < 0)
      continue; // A poison lane carries no derivative.
    unsigned Op = unsigned(Mask[K]) / N, Lane = unsigned(Mask[K]) % N;
    Value *Old = B.CreateExtractElement(Shares[Op], Lane);
    Value *New = B.CreateFAdd(Old, B.CreateExtractElement(Adjoint, K));
    Shares[Op] = B.CreateInsertElement(Shares[Op], New, Lane);
    Used[Op] = true;
  }
  for (unsigned Op = 0; Op != 2; ++Op)
    if (Used[Op])
      Accumulate(Op, Shares[Op]);
}

} // namespace

bool isDataMovement(const Instruction &I) {
  if (isa<BitCastInst>(I))
    return I.getType()->isFPOrFPVectorTy() &&
           I.getOperand(0)->getType()->isFPOrFPVectorTy();
  switch (I.getOpcode()) {
#define ADJOINT_MOVEMENT(Opcode)                                               \
  case Instruction::Opcode:                                                    \
    return true;
#include "adjoint/Rules/DerivativeRules.def"
  default:
    return false;
  }
}

void emitTransposedMovement(
    Instruction &I, Value *Adjoint, IRBuilderBase &B,
    function_ref<void(unsigned, Value *)> Accumulate) {
  if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    Value *Zero = adjointZero(EE->getVectorOperandType());
    Accumulate(0, B.CreateInsertElement(Zero, Adjoint, EE->getIndexOperand()));
    return;
  }
  if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    Value *Index = IE->getOperand(2);
    Type *EltTy = IE->getOperand(1)->getType();
    Accumulate(0, B.CreateInsertElement(Adjoint, adjointZero(EltTy), Index));
    Accumulate(1, B.CreateExtractElement(Adjoint, Index));
    return;
  }
  if (auto *SV = dyn_cast<ShuffleVectorInst>(&I))
    return transposeShuffle(*SV, Adjoint, B, Accumulate);
  if (isa<BitCastInst>(I)) // The same bytes, seen as the source type.
    return Accumulate(0, B.CreateBitCast(Adjoint, I.getOperand(0)->getType()));
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    Value *Zero = adjointZero(EV->getAggregateOperand()->getType());
    Accumulate(0, B.CreateInsertValue(Zero, Adjoint, EV->getIndices()));
    return;
  }
  auto *IV = cast<InsertValueInst>(&I);
  Type *FieldTy = IV->getInsertedValueOperand()->getType();
  Accumulate(0, B.CreateInsertValue(Adjoint, adjointZero(FieldTy),
                                    IV->getIndices()));
  Accumulate(1, B.CreateExtractValue(Adjoint, IV->getIndices()));
}

Constant *adjointZero(Type *T) {
  if (T->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(T);
  SmallVector<Constant *, 4> Fields;
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      Fields.push_back(adjointZero(E));
    return ConstantStruct::get(ST, Fields);
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    Fields.assign(AT->getNumElements(), adjointZero(AT->getElementType()));
    return ConstantArray::get(AT, Fields);
  }
  return Constant::getNullValue(T);
}

Value *addAdjoints(IRBuilderBase &B, Value *A, Value *C) {
  Type *T = A->getType();
  if (T->isFPOrFPVectorTy())
    return B.CreateFAdd(A, C);
  if (!T->isStructTy() && !T->isArrayTy())
    return A; // Integers and pointers carry no adjoint.
  for (unsigned I = 0, E = T->isStructTy() ? T->getStructNumElements()
                                           : T->getArrayNumElements();
       I != E; ++I) {
    Value *Sum = addAdjoints(B, B.CreateExtractValue(A, I),
                             B.CreateExtractValue(C, I));
    A = B.CreateInsertValue(A, Sum, I);
  }
  return A;
}

} // namespace adjoint
