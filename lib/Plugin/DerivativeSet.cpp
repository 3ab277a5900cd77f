//===- DerivativeSet.cpp - Every derivative function of a module ------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DerivativeSet.h"
#include "CloneTypes.h"
#include "../Synthesis/CustomDerivatives.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Planning/PrimalMemory.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Rules/DerivativeRules.h"
#include "adjoint/Support/TypeUtils.h"
#include "adjoint/Synthesis/GradientSynthesis.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "adjoint"

using namespace llvm;

namespace adjoint {

namespace {

/// Runs stages 1-4 on a clone of \p Fn and hands the request to
/// \p Synthesize (stage 5), which consumes the clone. Calls to functions
/// for which \p KeepCallsTo holds stay calls.
bool differentiate(Function &Fn, ArrayRef<ArgActivity> Activities,
                   const CallPattern *Split, ArrayRef<TypeTree> ArgTrees,
                   const CallBase &Site, FunctionAnalysisManager &FAM,
                   raw_ostream *PlanOut, CallDerivativeProvider &Calls,
                   function_ref<bool(const Function &)> KeepCallsTo,
                   function_ref<bool(const GradientRequest &)> Synthesize) {
  Function *Primal = cloneForDifferentiation(Fn, FAM, KeepCallsTo);
  TypeAnalyzer Analyzer;
  const FunctionTypeInfo &Types = analyzeClone(Analyzer, *Primal, ArgTrees);
  // A gradient's output is its floating-point return; a split pair's, what
  // its callers use.
  ActivityInfo Activity(
      *Primal, Activities,
      Split ? Split->ActiveReturn : containsFloat(Primal->getReturnType()),
      [&](const CallBase &Call) { return isDifferentiatedAsCall(Call, &Calls); });
  LLVM_DEBUG(Activity.print(dbgs()));
  const auto &DT = FAM.getResult<DominatorTreeAnalysis>(*Primal);
  const auto &LI = FAM.getResult<LoopAnalysis>(*Primal);
  const auto &TLI = FAM.getResult<TargetLibraryAnalysis>(*Primal);
  // A split pair's forward and reverse are two functions: its blocks are
  // freed where the function frees them.
  DeferredFrees Deferred;
  if (!Split)
    Deferred = findDeferrableFrees(
        *Primal, DT, FAM.getResult<PostDominatorTreeAnalysis>(*Primal), LI,
        TLI);
  auto Reloadable = findReloadableLoads(
      *Primal, FAM.getResult<AAManager>(*Primal), DT, LI, TLI, Deferred);
  // Synthesis consumes the clone: nothing cached about it may survive.
  FAM.clear(*Primal, Primal->getName());
  GradientRequest GR{*Primal,     Activities, Activity,   Types,
                     Fn.getName(), Site,      Reloadable, Deferred,
                     PlanOut,      &Calls,    Split};
  return Synthesize(GR);
}

} // namespace

DerivativeSet::DerivativeSet(Module &M, FunctionAnalysisManager &FAM,
                             raw_ostream *PlanOut)
    : M(M), FAM(FAM), PlanOut(PlanOut) {
  // __enzyme_register_derivative_* registers forward-mode derivatives.
  CustomGradients = collectCustomDerivatives(M, "__enzyme_register_gradient");
}

Function *DerivativeSet::gradient(const AutodiffRequest &R) {
  SmallVector<ArgActivity, 8> Activities = R.activities();
  auto Found = Gradients.try_emplace({R.Fn, Activities}, nullptr);
  auto It = Found.first;
  if (!Found.second)
    return It->second;
  std::string Name = (R.Fn->getName() + ".adjoint.grad").str();
  if (CustomGradients.contains(R.Fn)) {
    // The user's derivative replaces the body's.
    CallPattern P{Activities, R.Fn->getReturnType()->isFPOrFPVectorTy()};
    if (CallDerivative Pair = get(*R.Fn, P, *R.Call)) {
      It->second = gradientFromPair(*R.Fn, Activities, Pair, Name);
      Generated.push_back(It->second);
    }
    return It->second;
  }
  // What the caller did with the memory it passes seeds what the clone's
  // own accesses say.
  differentiate(*R.Fn, Activities, /*Split=*/nullptr,
                callerArgumentTrees(R), *R.Call, FAM,
                PlanOut, *this, keepCallsTo(),
                [&](const GradientRequest &GR) {
                  It->second = synthesizeGradient(GR, Name);
                  return It->second != nullptr;
                });
  if (It->second)
    Generated.push_back(It->second);
  buildPending(*R.Call);
  return It->second;
}

CallDerivative DerivativeSet::splitPair(Function &Fn, const CallPattern &P,
                                        const CallBase &Site) {
  CallDerivative Pair = get(Fn, P, Site);
  buildPending(Site);
  return Pair;
}

bool DerivativeSet::canDifferentiate(const Function &Callee) const {
  return CustomGradients.contains(&Callee) ||
         (!Callee.isDeclaration() && !Callee.isVarArg());
}

CallDerivative DerivativeSet::get(Function &Callee, const CallPattern &P,
                                  const CallBase &Site) {
  auto [It, Inserted] = Pairs.try_emplace({&Callee, P});
  if (!Inserted)
    return It->second;
  if (const GlobalVariable *Registration = CustomGradients.lookup(&Callee)) {
    It->second = adaptCustomGradient(Callee, P, *Registration, Site);
    if (It->second) {
      Generated.push_back(It->second.Augmented);
      Generated.push_back(It->second.Reverse);
    }
    return It->second;
  }
  std::string Base = (Callee.getName() + ".adjoint." + P.mangle()).str();
  It->second.Augmented =
      Function::Create(augmentedFunctionType(Callee.getFunctionType(), P),
                       GlobalValue::InternalLinkage, Base + ".aug", M);
  It->second.Reverse =
      Function::Create(reverseFunctionType(Callee.getFunctionType(), P),
                       GlobalValue::InternalLinkage, Base + ".rev", M);
  Pending.push_back({&Callee, P, It->second});
  return It->second;
}

/// May calls through pointers reach \p F: is its address used other than
/// to call it or to name it to the Enzyme API?
static bool isIndirectCallTarget(const Function &F) {
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (const auto *Call = dyn_cast<CallBase>(Usr)) {
      if (Call->isCallee(&U))
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName().contains("__enzyme_"))
        continue;
    }
    // A registration array { f, augmented, reverse }.
    if (isa<ConstantArray>(Usr) &&
        all_of(Usr->users(), [](const User *G) {
          return isa<GlobalVariable>(G) &&
                 G->getName().starts_with("__enzyme_register");
        }))
      continue;
    return true;
  }
  return false;
}

/// An internal function that calls \p F with its arguments.
static Function *callingWrapper(Function &F) {
  std::string Name = (F.getName() + ".adjoint.callee").str();
  if (Function *W = F.getParent()->getFunction(Name))
    return W;
  Function *W = Function::Create(F.getFunctionType(),
                                 GlobalValue::InternalLinkage, Name,
                                 F.getParent());
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", W));
  SmallVector<Value *, 4> Args;
  for (Argument &A : W->args())
    Args.push_back(&A);
  Value *Result = B.CreateCall(&F, Args);
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Result);
  return W;
}

CallDerivative DerivativeSet::getIndirect(FunctionType *FTy,
                                          const CallPattern &P,
                                          const CallBase &Site) {
  auto [It, Inserted] = Dispatchers.try_emplace({FTy, P});
  if (!Inserted)
    return It->second;
  SmallVector<Function *, 8> Candidates;
  for (Function &F : M)
    if (F.getFunctionType() == FTy && isIndirectCallTarget(F))
      Candidates.push_back(&F);
  SmallVector<std::pair<Function *, CallDerivative>, 8> Targets;
  for (Function *F : Candidates) {
    Function *Body = F;
    // A library function with a rule (sin, exp, ...): differentiate a
    // function that calls it.
    if (!canDifferentiate(*F)) {
      if (!F->isDeclaration() || !findFunctionRule(F->getName()))
        continue;
      Body = callingWrapper(*F);
    }
    if (CallDerivative Pair = get(*Body, P, Site))
      Targets.push_back({F, Pair});
  }
  It->second = buildDispatchPair(FTy, P, Targets, M);
  Generated.push_back(It->second.Augmented);
  Generated.push_back(It->second.Reverse);
  return It->second;
}

void DerivativeSet::buildPending(const CallBase &Site) {
  while (!Pending.empty())
    buildPair(Pending.pop_back_val(), Site);
}

void DerivativeSet::buildPair(const PendingPair &P, const CallBase &Site) {
  // A pair that cannot be built was reported and given aborting bodies.
  differentiate(
      *P.Callee, P.Pattern.Args, &P.Pattern, /*ArgTrees=*/{}, Site, FAM,
      PlanOut, *this, keepCallsTo(), [&](const GradientRequest &GR) {
        return synthesizeSplit(GR, P.Pair);
      });
  Generated.push_back(P.Pair.Augmented);
  Generated.push_back(P.Pair.Reverse);
}

} // namespace adjoint
