//===- Allocations.cpp - Heap allocation functions --------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"

#include "llvm/ADT/StringSwitch.h"
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
Value *allocationSize(CallBase &Alloc, IRBuilderBase &B) {
  StringRef Name = calleeName(Alloc);
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
        Call && isDeallocation(*Call) && Call->getArgOperand(0) == &Alloc)
      return const_cast<CallBase *>(Call);
  return nullptr;
}

void freeShadow(CallBase &Dealloc, Value *Shadow, IRBuilderBase &B) {
  auto *Free = cast<CallBase>(Dealloc.clone());
  Free->setArgOperand(0, Shadow);
  B.Insert(Free);
}

} // namespace adjoint
