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
#include "llvm/IR/Module.h"
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

bool takesReturnAdjoint(const FunctionType *FTy, const CallPattern &P) {
  return P.ActiveReturn && containsFloat(FTy->getReturnType());
}

bool returnsShadow(const FunctionType *FTy, const CallPattern &P) {
  return P.ActiveReturn && FTy->getReturnType()->isPointerTy();
}

bool isDifferentiatedAsCall(const CallBase &Call,
                            const CallDerivativeProvider *Calls) {
  if (!Calls || isa<IntrinsicInst>(Call) || Call.isInlineAsm() ||
      findRule(Call) || isAllocation(Call) || isDeallocation(Call) ||
      isReallocation(Call))
    return false;
  const Function *Callee = Call.getCalledFunction();
  return Callee ? Calls->canDifferentiate(*Callee) : Call.isIndirectCall();
}

FunctionType *augmentedFunctionType(FunctionType *FTy, const CallPattern &P) {
  LLVMContext &Ctx = FTy->getContext();
  SmallVector<Type *, 3> Results = {PointerType::getUnqual(Ctx)};
  Type *RetTy = FTy->getReturnType();
  if (!RetTy->isVoidTy())
    Results.push_back(RetTy);
  if (returnsShadow(FTy, P))
    Results.push_back(RetTy);
  // The gradient's parameters: the arguments, each shadow after its value.
  return FunctionType::get(StructType::get(Ctx, Results),
                           gradientFunctionType(FTy, P.Args)->params(),
                           /*isVarArg=*/false);
}

FunctionType *reverseFunctionType(FunctionType *FTy, const CallPattern &P) {
  FunctionType *Gradient = gradientFunctionType(FTy, P.Args);
  SmallVector<Type *, 8> Params(Gradient->params());
  if (takesReturnAdjoint(FTy, P))
    Params.push_back(FTy->getReturnType());
  Params.push_back(PointerType::getUnqual(FTy->getContext()));
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
  if (Pair.Reverse->arg_size() == Args.size() + 2)
    Args.push_back(ConstantFP::get(F.getReturnType(), 1.0)); // The seed.
  Args.push_back(Tape);
  Value *Gradients = B.CreateCall(Pair.Reverse, Args);
  if (Grad->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Gradients);
  return Grad;
}

namespace {

/// `void adjoint.no.derivative(ptr F)`: reports that a call through a
/// pointer reached F, which has no derivative here, and aborts. dladdr names
/// F when the dynamic symbol table has it.
Function *getNoDerivativeAbort(Module &M) {
  StringRef Name = "adjoint.no.derivative";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoReturn);
  F->addFnAttr(Attribute::Cold);
  F->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  // Dl_info: file name, file base, symbol name, symbol address.
  Type *DlInfo = ArrayType::get(Ptr, 4);
  Value *Info = B.CreateAlloca(DlInfo);
  B.CreateMemSet(Info, B.getInt8(0), 32, MaybeAlign(8));
  B.CreateCall(M.getOrInsertFunction("dladdr", I32, Ptr, Ptr),
               {F->getArg(0), Info});
  Value *Symbol = B.CreateLoad(Ptr, B.CreateConstGEP2_32(DlInfo, Info, 0, 2));
  Value *Unknown = B.CreateGlobalStringPtr("(a function without a symbol)");
  Symbol = B.CreateSelect(B.CreateIsNull(Symbol), Unknown, Symbol);
  Value *Format = B.CreateGlobalStringPtr(
      "adjoint: a call through a function pointer reached %s at %p, which "
      "has no derivative (it is not defined in the module that was "
      "differentiated and has no registered custom gradient)\n");
  B.CreateCall(
      M.getOrInsertFunction("dprintf", FunctionType::get(I32, {I32, Ptr}, true)),
      {B.getInt32(2), Format, Symbol, F->getArg(0)});
  B.CreateCall(M.getOrInsertFunction("abort", Type::getVoidTy(Ctx)));
  B.CreateUnreachable();
  return F;
}

/// A dispatcher of type \p Ty: its first argument is the function pointer;
/// it calls, with the other arguments, what \p Pick gives for the target
/// it holds.
Function *buildDispatcher(
    FunctionType *Ty, const Twine &Name,
    ArrayRef<std::pair<Function *, CallDerivative>> Targets,
    function_ref<Function *(const CallDerivative &)> Pick, Module &M) {
  SmallVector<Type *, 8> Params = {PointerType::getUnqual(M.getContext())};
  append_range(Params, Ty->params());
  Function *D = Function::Create(
      FunctionType::get(Ty->getReturnType(), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  LLVMContext &Ctx = M.getContext();
  BasicBlock *Test = BasicBlock::Create(Ctx, "entry", D);
  SmallVector<Value *, 8> Args;
  for (Argument &A : drop_begin(D->args()))
    Args.push_back(&A);
  Argument *Target = D->getArg(0);
  for (auto &[F, Pair] : Targets) {
    BasicBlock *Call = BasicBlock::Create(Ctx, F->getName(), D);
    BasicBlock *Next = BasicBlock::Create(Ctx, "next", D);
    IRBuilder<> B(Test);
    B.CreateCondBr(B.CreateICmpEQ(Target, F), Call, Next);
    B.SetInsertPoint(Call);
    Value *Result = B.CreateCall(Pick(Pair), Args);
    if (Ty->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Result);
    Test = Next;
  }
  IRBuilder<> B(Test);
  B.CreateCall(getNoDerivativeAbort(M), {Target});
  B.CreateUnreachable();
  return D;
}

} // namespace

CallDerivative
buildDispatchPair(FunctionType *FTy, const CallPattern &P,
                  ArrayRef<std::pair<Function *, CallDerivative>> Targets,
                  Module &M) {
  std::string Base = "adjoint.indirect." + P.mangle();
  return {buildDispatcher(
              augmentedFunctionType(FTy, P), Base + ".aug", Targets,
              [](const CallDerivative &D) { return D.Augmented; }, M),
          buildDispatcher(
              reverseFunctionType(FTy, P), Base + ".rev", Targets,
              [](const CallDerivative &D) { return D.Reverse; }, M)};
}

} // namespace adjoint
