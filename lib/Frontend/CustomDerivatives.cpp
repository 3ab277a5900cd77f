//===- CustomDerivatives.cpp - Registered derivatives -----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Frontend/CustomDerivatives.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

DenseMap<const Function *, CustomForwardDerivative>
collectCustomForwardDerivatives(const Module &M) {
  DenseMap<const Function *, CustomForwardDerivative> Result;
  for (const GlobalVariable &GV : M.globals()) {
    if (!GV.getName().starts_with(ForwardRegistrationPrefix) ||
        !GV.hasInitializer())
      continue;
    const auto *Init = dyn_cast<ConstantArray>(GV.getInitializer());
    if (!Init || Init->getNumOperands() < 2)
      continue;
    const auto *F = dyn_cast<Function>(Init->getOperand(0)->stripPointerCasts());
    auto *Derivative =
        dyn_cast<Function>(Init->getOperand(1)->stripPointerCasts());
    if (F && Derivative)
      Result[F] = {&GV, Derivative};
  }
  return Result;
}

} // namespace adjoint
