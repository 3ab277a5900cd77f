//===- ActivityAnalysis.cpp - What carries derivatives ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Values of these types can hold a derivative, or point to memory that
/// holds one. Integers and booleans never do.
bool mayCarryDerivative(const Type *T) {
  return containsFloat(T) || T->isPointerTy();
}

} // namespace

SmallVector<ArgActivity, 8> defaultActivities(const Function &F) {
  SmallVector<ArgActivity, 8> Result;
  for (const Argument &A : F.args()) {
    if (isFloatAggregate(A.getType()))
      Result.push_back(ArgActivity::Out);
    else if (A.getType()->isPointerTy())
      Result.push_back(ArgActivity::Dup);
    else
      Result.push_back(ArgActivity::Const);
  }
  return Result;
}

ActivityInfo::ActivityInfo(const Function &F, ArrayRef<ArgActivity> Args)
    : F(F) {
  propagateVaried(Args);
  propagateUseful();
}

void ActivityInfo::propagateVaried(ArrayRef<ArgActivity> Args) {
  SmallVector<const Value *, 32> Worklist;
  for (const Argument &A : F.args())
    if (Args[A.getArgNo()] != ArgActivity::Const &&
        mayCarryDerivative(A.getType()) && Varied.insert(&A).second)
      Worklist.push_back(&A);

  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !mayCarryDerivative(I->getType()))
        continue;
      if (Varied.insert(I).second)
        Worklist.push_back(I);
    }
  }
}

void ActivityInfo::propagateUseful() {
  SmallVector<const Value *, 32> Worklist;
  auto MarkUseful = [&](const Value *V) {
    if ((isa<Instruction>(V) || isa<Argument>(V)) &&
        mayCarryDerivative(V->getType()) && Useful.insert(V).second)
      Worklist.push_back(V);
  };
  if (containsFloat(F.getReturnType()))
    for (const Instruction &I : instructions(F))
      if (const auto *Ret = dyn_cast<ReturnInst>(&I))
        if (const Value *RV = Ret->getReturnValue())
          MarkUseful(RV);

  while (!Worklist.empty()) {
    const auto *I = dyn_cast<Instruction>(Worklist.pop_back_val());
    if (!I)
      continue;
    for (const Value *Op : I->operands())
      MarkUseful(Op);
  }
}

void ActivityInfo::print(raw_ostream &OS) const {
  OS << "activity of '" << F.getName() << "':\n";
  for (const Argument &A : F.args()) {
    OS << "  " << (isActive(&A) ? "active   " : "constant ") << "arg ";
    A.printAsOperand(OS, /*PrintType=*/false);
    OS << '\n';
  }
  for (const Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy())
      continue;
    OS << "  " << (isActive(&I) ? "active   " : "constant ");
    I.printAsOperand(OS, /*PrintType=*/false);
    OS << " = " << I.getOpcodeName() << '\n';
  }
}

PreservedAnalyses ActivityPrinterPass::run(Function &F,
                                           FunctionAnalysisManager &) {
  if (!F.isDeclaration())
    ActivityInfo(F, defaultActivities(F)).print(OS);
  return PreservedAnalyses::all();
}

} // namespace adjoint
