//===- ForwardDerivatives.cpp - Forward derivatives of a module -------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ForwardDerivatives.h"
#include "CloneTypes.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Synthesis/ForwardMode.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "adjoint"

using namespace llvm;

namespace adjoint {

Function *ForwardDerivatives::serve(const AutodiffRequest &R) {
  assert(R.Mode == DiffMode::Forward && "a reverse-mode request");
  Function *Top = declare(*R.Fn, R.activities(), /*ReturnPrimal=*/false);
  SmallVector<std::pair<Key, Function *>, 8> Session;
  while (!Pending.empty()) {
    Session.push_back(Pending.pop_back_val());
    auto &[K, F] = Session.back();
    if (!build(K, *F, R)) {
      Session.append(Pending.begin(), Pending.end());
      Pending.clear();
      discard(Session);
      return nullptr;
    }
  }
  for (auto &[K, F] : Session)
    Built.push_back(F);
  return Top;
}

Function *ForwardDerivatives::declare(Function &Fn,
                                      ArrayRef<ArgActivity> Pattern,
                                      bool ReturnPrimal) {
  Key K(&Fn, SmallVector<ArgActivity, 8>(Pattern), ReturnPrimal);
  auto [It, Inserted] = Derivatives.try_emplace(K, nullptr);
  if (!Inserted)
    return It->second;
  // External until it has a body: a declaration cannot be internal.
  It->second = Function::Create(
      forwardFunctionType(Fn, Pattern, ReturnPrimal),
      GlobalValue::ExternalLinkage,
      Fn.getName() + (ReturnPrimal ? ".adjoint.fwd.call" : ".adjoint.fwd"),
      Fn.getParent());
  Pending.push_back({std::move(K), It->second});
  return It->second;
}

namespace {

/// A function that only calls \p Fn: what forward mode differentiates in
/// place of a function whose registered derivative replaces its body, so
/// that a request for it calls the function and then its derivative, as
/// any other call of it does.
Function *callThrough(Function &Fn) {
  Function *Wrapper =
      Function::Create(Fn.getFunctionType(), GlobalValue::InternalLinkage,
                       Fn.getName() + ".adjoint.primal", Fn.getParent());
  IRBuilder<> B(BasicBlock::Create(Fn.getContext(), "", Wrapper));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Wrapper->args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Fn, Args);
  Call->setCallingConv(Fn.getCallingConv());
  if (Call->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Wrapper;
}

} // namespace

/// Runs the stages on one function. Type analysis is seeded, for the
/// requested function, with what the caller's own analysis knows of the
/// values it passes (callerArgumentTrees, as for reverse mode).
bool ForwardDerivatives::build(const Key &K, Function &Into,
                               const AutodiffRequest &Top) {
  auto &[Fn, Pattern, ReturnPrimal] = K;
  Function *Primal =
      hasCustomDerivative(*Fn)
          ? callThrough(*Fn)
          : cloneForDifferentiation(*Fn, FAM, [&](const Function &G) {
              return hasCustomDerivative(G);
            });
  SmallVector<TypeTree, 8> ArgTrees;
  if (Fn == Top.Fn && !ReturnPrimal)
    ArgTrees = callerArgumentTrees(Top);
  TypeAnalyzer Analyzer;
  const FunctionTypeInfo &Types = analyzeClone(Analyzer, *Primal, ArgTrees);
  ActivityInfo Activity(*Primal, Pattern);
  LLVM_DEBUG(Activity.print(dbgs()));
  // Synthesis consumes the clone: nothing cached about it may survive.
  FAM.clear(*Primal, Primal->getName());
  auto DerivativeOf = [&](Function &Callee, ArrayRef<ArgActivity> P) {
    return declare(Callee, P, /*ReturnPrimal=*/true);
  };
  ForwardRequest FR{*Primal,       Pattern,   Activity,     Types,
                    Fn->getName(), *Top.Call, ReturnPrimal, DerivativeOf,
                    Custom};
  return synthesizeForward(FR, Into);
}

/// A request failed: none of the derivatives declared for it is kept. They
/// call only each other, so dropping their bodies frees them all.
void ForwardDerivatives::discard(
    ArrayRef<std::pair<Key, Function *>> Failed) {
  for (auto &[K, F] : Failed)
    F->deleteBody();
  for (auto &[K, F] : Failed) {
    Derivatives.erase(K);
    F->eraseFromParent();
  }
}

} // namespace adjoint
