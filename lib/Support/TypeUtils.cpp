//===- TypeUtils.cpp - Which types carry derivatives ------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Support/TypeUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace adjoint {

bool isFloatAggregate(const Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return isFloatAggregate(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(T))
    return ST->getNumElements() > 0 &&
           all_of(ST->elements(), [](Type *E) { return isFloatAggregate(E); });
  return false;
}

bool containsFloat(const Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return containsFloat(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), [](Type *E) { return containsFloat(E); });
  return false;
}

void flattenLeaves(Type *T, SmallVectorImpl<Type *> &Leaves) {
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Leaves.append(VT->getNumElements(), VT->getElementType());
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (uint64_t I = 0, E = AT->getNumElements(); I != E; ++I)
      flattenLeaves(AT->getElementType(), Leaves);
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      flattenLeaves(E, Leaves);
    return;
  }
  if (!T->isVoidTy())
    Leaves.push_back(T);
}

} // namespace adjoint
