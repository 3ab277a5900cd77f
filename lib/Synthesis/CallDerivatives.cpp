//===- CallDerivatives.cpp - Signatures of call derivatives -----------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/CallDerivatives.h"
#include "Allocations.h"

#include "adjoint/Rules/DerivativeRules.h"
#include "adjoint/Support/TypeUtils.h"
#include "adjoint/Synthesis/GradientSynthesis.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adjoint {

std::string CallPattern::mangle() const {
  std::string Result;
  for (ArgActivity A : Args)
    Result += A == ArgActivity::Out ? 'o' : hasShadow(A) ? 'd' : 'c';
  if (ActiveReturn)
    Result += 'r';
  return Result;
}

bool takesReturnAdjoint(const Function &F, const CallPattern &P) {
  return P.ActiveReturn && F.getReturnType()->isFPOrFPVectorTy();
}

bool returnsShadow(const Function &F, const CallPattern &P) {
  return P.ActiveReturn && F.getReturnType()->isPointerTy();
}

bool isDifferentiatedAsCall(const CallBase &Call,
                            const CallDerivativeProvider *Calls) {
  if (!Calls || isa<IntrinsicInst>(Call) || Call.isInlineAsm() ||
      findRule(Call) || isAllocation(Call) || isDeallocation(Call) ||
      isReallocation(Call))
    return false;
  const Function *Callee = Call.getCalledFunction();
  return Callee && Calls->canDifferentiate(*Callee);
}

FunctionType *augmentedFunctionType(const Function &F, const CallPattern &P) {
  SmallVector<Type *, 8> Params;
  for (const Argument &A : F.args()) {
    Params.push_back(A.getType());
    if (hasShadow(P.Args[A.getArgNo()]))
      Params.push_back(A.getType());
  }
  LLVMContext &Ctx = F.getContext();
  SmallVector<Type *, 3> Results = {PointerType::getUnqual(Ctx)};
  Type *RetTy = F.getReturnType();
  if (!RetTy->isVoidTy())
    Results.push_back(RetTy);
  if (returnsShadow(F, P))
    Results.push_back(RetTy);
  return FunctionType::get(StructType::get(Ctx, Results), Params,
                           /*isVarArg=*/false);
}

FunctionType *reverseFunctionType(const Function &F, const CallPattern &P) {
  FunctionType *Gradient = gradientFunctionType(F, P.Args);
  SmallVector<Type *, 8> Params(Gradient->params());
  if (takesReturnAdjoint(F, P))
    Params.push_back(F.getReturnType());
  Params.push_back(PointerType::getUnqual(F.getContext()));
  return FunctionType::get(Gradient->getReturnType(), Params,
                           /*isVarArg=*/false);
}

Function *gradientFromPair(Function &F, ArrayRef<ArgActivity> Activities,
                           const CallDerivative &Pair, const Twine &Name) {
  Function *Grad = Function::Create(gradientFunctionType(F, Activities),
                                    GlobalValue::InternalLinkage, Name,
                                    F.getParent());
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", Grad));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Grad->args())
    Args.push_back(&A);
  Value *Tape = B.CreateExtractValue(B.CreateCall(Pair.Augmented, Args), 0);
  if (F.getReturnType()->isFPOrFPVectorTy())
    Args.push_back(ConstantFP::get(F.getReturnType(), 1.0));
  Args.push_back(Tape);
  Value *Gradients = B.CreateCall(Pair.Reverse, Args);
  if (Grad->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Gradients);
  return Grad;
}

} // namespace adjoint
