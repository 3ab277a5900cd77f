//===- CustomDerivatives.cpp - Derivatives the user registered --------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CustomDerivatives.h"

#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"
#include "adjoint/Synthesis/GradientSynthesis.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

namespace {

/// A C spelling of \p T for messages (structs field by field).
std::string spell(Type *T) {
  auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return describeCType(T);
  std::string S = "struct {";
  for (Type *E : ST->elements())
    S += " " + spell(E) + ";";
  return S + " }";
}

std::string spell(Type *Ret, StringRef Name, ArrayRef<Type *> Params) {
  std::string S = spell(Ret) + " " + Name.str() + "(";
  for (auto [I, P] : enumerate(Params))
    S += (I ? ", " : "") + spell(P);
  return S + ")";
}

/// The user's convention for \p F: its parameters, each pointer followed
/// by its shadow; the reverse returns the gradients of the floating-point
/// parameters.
struct UserConvention {
  SmallVector<Type *, 8> Params;
  SmallVector<Type *, 4> Gradients;
  Type *ReturnAdjoint = nullptr; ///< F's return, if floating-point.

  explicit UserConvention(Function &F) {
    for (Argument &A : F.args()) {
      Params.push_back(A.getType());
      if (A.getType()->isPointerTy())
        Params.push_back(A.getType());
      if (isFloatAggregate(A.getType()))
        Gradients.push_back(A.getType());
    }
    if (F.getReturnType()->isFPOrFPVectorTy())
      ReturnAdjoint = F.getReturnType();
  }
};

/// How the user's augmented forward returns: tape and primal, or some.
struct AugmentedReturn {
  bool Tape, Primal;
};

std::optional<AugmentedReturn> matchAugmented(Function &F, Function &Aug,
                                              const UserConvention &C) {
  if (Aug.isVarArg() || Aug.getFunctionType()->params() != ArrayRef(C.Params))
    return std::nullopt;
  Type *Ret = Aug.getReturnType(), *FRet = F.getReturnType();
  if (FRet->isVoidTy()) {
    if (Ret->isVoidTy())
      return AugmentedReturn{false, false};
    if (Ret->isPointerTy())
      return AugmentedReturn{true, false};
    return std::nullopt;
  }
  if (Ret == FRet)
    return AugmentedReturn{false, true};
  // Without the result: the adapter calls F for it (as Enzyme allows).
  if (Ret->isVoidTy())
    return AugmentedReturn{false, false};
  if (Ret->isPointerTy())
    return AugmentedReturn{true, false};
  auto *ST = dyn_cast<StructType>(Ret);
  if (ST && ST->getNumElements() == 2 &&
      ST->getElementType(0)->isPointerTy() && ST->getElementType(1) == FRet)
    return AugmentedReturn{true, true};
  return std::nullopt;
}

bool matchReverse(Function &Rev, const UserConvention &C, bool Tape) {
  SmallVector<Type *, 8> Params(C.Params);
  if (C.ReturnAdjoint)
    Params.push_back(C.ReturnAdjoint);
  if (Tape)
    Params.push_back(PointerType::getUnqual(Rev.getContext()));
  if (Rev.isVarArg() || Rev.getFunctionType()->params() != ArrayRef(Params))
    return false;
  Type *Ret = Rev.getReturnType();
  if (C.Gradients.empty())
    return Ret->isVoidTy();
  if (C.Gradients.size() == 1 && Ret == C.Gradients.front())
    return true;
  auto *ST = dyn_cast<StructType>(Ret);
  return ST && ST->elements() == ArrayRef(C.Gradients);
}

std::string expectedSignatures(Function &F, const UserConvention &C) {
  Type *FRet = F.getReturnType();
  LLVMContext &Ctx = F.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  std::string Aug =
      FRet->isVoidTy()
          ? spell(Ptr, "augmented", C.Params) + " (returning the tape) or " +
                spell(Type::getVoidTy(Ctx), "augmented", C.Params)
          : spell(StructType::get(Ctx, {Ptr, FRet}), "augmented", C.Params) +
                " (the tape and the result), " +
                spell(FRet, "augmented", C.Params) + " (no tape) or " +
                spell(Ptr, "augmented", C.Params) + " (no result)";
  SmallVector<Type *, 8> RevParams(C.Params);
  if (C.ReturnAdjoint)
    RevParams.push_back(C.ReturnAdjoint);
  RevParams.push_back(Ptr);
  Type *RevRet = C.Gradients.empty()       ? Type::getVoidTy(Ctx)
                 : C.Gradients.size() == 1 ? C.Gradients.front()
                                           : StructType::get(Ctx, C.Gradients);
  return "the augmented forward as " + Aug + ", and the reverse as " +
         spell(RevRet, "reverse", RevParams) +
         " (without the last parameter, the tape, if the augmented forward "
         "returns none); each pointer parameter is followed by its shadow";
}

Function *createAdapter(FunctionType *Ty, const Twine &Name, Module &M) {
  Function *F = Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  return F;
}

/// The user's arguments from the pair's: each pointer followed by its
/// shadow, or null where the call site has none.
SmallVector<Value *, 8> userArguments(Function &F, const CallPattern &P,
                                      Function &Adapter) {
  SmallVector<Value *, 8> Args;
  unsigned Next = 0;
  for (Argument &A : F.args()) {
    Args.push_back(Adapter.getArg(Next++));
    if (!A.getType()->isPointerTy())
      continue;
    Args.push_back(hasShadow(P.Args[A.getArgNo()])
                       ? static_cast<Value *>(Adapter.getArg(Next++))
                       : Constant::getNullValue(A.getType()));
  }
  return Args;
}

/// The pair's arguments without the shadows.
SmallVector<Value *, 8> primalArguments(Function &F, const CallPattern &P,
                                        Function &Adapter) {
  SmallVector<Value *, 8> Args;
  unsigned Next = 0;
  for (Argument &A : F.args()) {
    Args.push_back(Adapter.getArg(Next++));
    if (hasShadow(P.Args[A.getArgNo()]))
      ++Next;
  }
  return Args;
}

Function *buildAugmentedAdapter(Function &F, const CallPattern &P,
                                Function &UserAug, AugmentedReturn How) {
  Function *Aug = createAdapter(augmentedFunctionType(F.getFunctionType(), P),
                                F.getName() + ".adjoint." + P.mangle() +
                                    ".aug",
                                *F.getParent());
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", Aug));
  CallInst *Call = B.CreateCall(&UserAug, userArguments(F, P, *Aug));
  Value *Tape = ConstantPointerNull::get(B.getPtrTy());
  Value *Primal = nullptr;
  if (How.Tape && How.Primal) {
    Tape = B.CreateExtractValue(Call, 0);
    Primal = B.CreateExtractValue(Call, 1);
  } else if (How.Tape) {
    Tape = Call;
  } else if (How.Primal) {
    Primal = Call;
  }
  // The user's augmented forward does not compute the result: F does (the
  // cleanup drops the call when nothing uses the result and F has no side
  // effects).
  if (!Primal && !F.getReturnType()->isVoidTy())
    Primal = B.CreateCall(&F, primalArguments(F, P, *Aug));
  Value *Result = B.CreateInsertValue(PoisonValue::get(Aug->getReturnType()),
                                      Tape, 0);
  if (Primal)
    Result = B.CreateInsertValue(Result, Primal, 1);
  B.CreateRet(Result);
  return Aug;
}

Function *buildReverseAdapter(Function &F, const CallPattern &P,
                              Function &UserRev, const UserConvention &C,
                              bool HasTape) {
  Function *Rev = createAdapter(reverseFunctionType(F.getFunctionType(), P),
                                F.getName() + ".adjoint." + P.mangle() +
                                    ".rev",
                                *F.getParent());
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", Rev));
  SmallVector<Value *, 8> Args = userArguments(F, P, *Rev);
  unsigned Next = Rev->arg_size() - 1; // The tape.
  if (C.ReturnAdjoint)
    Args.push_back(takesReturnAdjoint(F.getFunctionType(), P)
                       ? static_cast<Value *>(Rev->getArg(Next - 1))
                       : Constant::getNullValue(C.ReturnAdjoint));
  if (HasTape)
    Args.push_back(Rev->getArg(Next));
  CallInst *Call = B.CreateCall(&UserRev, Args);
  // Keep the gradients of the parameters the call site has as enzyme_out.
  SmallVector<Value *, 4> Kept;
  unsigned UserIndex = 0;
  for (Argument &A : F.args()) {
    if (!isFloatAggregate(A.getType()))
      continue;
    Value *G = C.Gradients.size() == 1 ? static_cast<Value *>(Call)
                                       : B.CreateExtractValue(Call, UserIndex);
    ++UserIndex;
    if (P.Args[A.getArgNo()] == ArgActivity::Out)
      Kept.push_back(G);
  }
  Type *RetTy = Rev->getReturnType();
  if (Kept.empty())
    B.CreateRetVoid();
  else if (Kept.size() == 1)
    B.CreateRet(Kept.front());
  else {
    Value *Agg = PoisonValue::get(RetTy);
    for (auto [I, G] : enumerate(Kept))
      Agg = B.CreateInsertValue(Agg, G, I);
    B.CreateRet(Agg);
  }
  return Rev;
}

} // namespace

CallDerivative adaptCustomGradient(Function &F, const CallPattern &P,
                                   const GlobalVariable &Registration,
                                   const Instruction &Site) {
  auto *Init = dyn_cast<ConstantArray>(Registration.getInitializer());
  auto FunctionAt = [&](unsigned I) -> Function * {
    return Init && I < Init->getNumOperands()
               ? dyn_cast<Function>(Init->getOperand(I)->stripPointerCasts())
               : nullptr;
  };
  Function *UserAug = FunctionAt(1), *UserRev = FunctionAt(2);
  UserConvention C(F);
  auto Fail = [&](const Twine &Why) {
    reportError(Site, "custom gradient '" + Registration.getName() +
                          "' for '" + demangle(F.getName()) + "': " + Why +
                          "; expected " + expectedSignatures(F, C));
    return CallDerivative();
  };
  if (!UserAug || !UserRev || Init->getNumOperands() != 3)
    return Fail("it must list three functions: the function, its augmented "
                "forward and its reverse");
  if (F.getReturnType()->isPointerTy() && P.ActiveReturn)
    return Fail("functions returning pointers to memory that holds "
                "derivatives cannot have custom gradients yet");
  std::optional<AugmentedReturn> How = matchAugmented(F, *UserAug, C);
  if (!How)
    return Fail("the augmented forward '" + demangle(UserAug->getName()) +
                "' has type " +
                spell(UserAug->getReturnType(), UserAug->getName(),
                      UserAug->getFunctionType()->params()));
  if (!matchReverse(*UserRev, C, How->Tape))
    return Fail("the reverse '" + demangle(UserRev->getName()) +
                "' has type " +
                spell(UserRev->getReturnType(), UserRev->getName(),
                      UserRev->getFunctionType()->params()));
  return {buildAugmentedAdapter(F, P, *UserAug, *How),
          buildReverseAdapter(F, P, *UserRev, C, How->Tape)};
}

} // namespace adjoint
