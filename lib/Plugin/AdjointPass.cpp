//===- AdjointPass.cpp - The module pass ------------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Plugin/AdjointPass.h"
#include "ForwardDerivatives.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Planning/CachePlan.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Synthesis/GradientSynthesis.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <map>

#define DEBUG_TYPE "adjoint"

using namespace llvm;

static cl::opt<bool> PrintBefore("adjoint-print-before", cl::Hidden,
                                 cl::desc("Print the module before AD"));
static cl::opt<bool> PrintAfter("adjoint-print-after", cl::Hidden,
                                cl::desc("Print the module after AD"));

namespace adjoint {

namespace {

/// One gradient function per (function, activity pattern).
using GradientKey = std::pair<Function *, SmallVector<ArgActivity, 8>>;

struct KeyLess {
  bool operator()(const GradientKey &A, const GradientKey &B) const {
    if (A.first != B.first)
      return A.first < B.first;
    return std::lexicographical_compare(A.second.begin(), A.second.end(),
                                        B.second.begin(), B.second.end());
  }
};

/// Runs the stages for one request.
Function *buildGradient(const AutodiffRequest &R, FunctionAnalysisManager &FAM,
                        raw_ostream *PlanOut) {
  SmallVector<ArgActivity, 8> Activities = R.activities();
  Function *Primal = cloneForDifferentiation(*R.Fn, FAM);
  // What the caller did with the memory it passes (how it filled it)
  // seeds what the clone's own accesses say. The caller's own calls are not
  // followed: that is all the seeding needs, and keeps this cheap however
  // large the caller's call graph is.
  TypeAnalyzer CallerAnalyzer;
  CallerAnalyzer.setFollowCalls(false);
  const FunctionTypeInfo &CallerTypes =
      CallerAnalyzer.analyze(*R.Call->getFunction());
  SmallVector<TypeTree, 8> ArgTrees;
  for (const RequestArg &A : R.Args)
    ArgTrees.push_back(CallerTypes.getTree(A.Primal));
  // A fresh analyzer for the clone: synthesis consumes the clone, so no
  // summary may outlive this request.
  TypeAnalyzer Analyzer;
  const FunctionTypeInfo *Types = &Analyzer.analyze(*Primal, ArgTrees);
  if (retypeFloatAccesses(*Primal, *Types)) {
    Analyzer.clear(); // Its summaries name values that are gone.
    Types = &Analyzer.analyze(*Primal, ArgTrees);
  }
  LLVM_DEBUG(Types->print(dbgs()));
  ActivityInfo Activity(*Primal, Activities);
  LLVM_DEBUG(Activity.print(dbgs()));
  auto Reloadable =
      findReloadableLoads(*Primal, FAM.getResult<AAManager>(*Primal));
  // Synthesis consumes the clone: nothing cached about it may survive.
  FAM.clear(*Primal, Primal->getName());
  GradientRequest GR{*Primal,          Activities, Activity,
                     *Types,           R.Fn->getName(), *R.Call,
                     Reloadable,       PlanOut};
  return synthesizeGradient(GR, R.Fn->getName() + ".adjoint.grad");
}

/// The first function in \p Targets that \p F is or calls, directly or
/// through other defined functions; null if none.
const Function *reachedFunction(Function *F,
                                function_ref<bool(const Function *)> Targets) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Worklist = {F};
  while (!Worklist.empty()) {
    Function *G = Worklist.pop_back_val();
    if (!Seen.insert(G).second)
      continue;
    if (Targets(G))
      return G;
    for (Instruction &I : instructions(*G))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration())
          Worklist.push_back(Callee);
  }
  return nullptr;
}

/// Orders requests so that a function is differentiated only after the
/// requests inside it (or inside what it calls) were served: a gradient of
/// a gradient needs the inner gradient to exist first. Requests caught in a
/// cycle come last, in their original order.
SmallVector<AutodiffRequest *, 8>
orderInnerFirst(MutableArrayRef<AutodiffRequest> Requests) {
  SmallVector<AutodiffRequest *, 8> Order, Remaining;
  for (AutodiffRequest &R : Requests)
    Remaining.push_back(&R);
  while (!Remaining.empty()) {
    SmallPtrSet<const Function *, 8> Containing;
    for (AutodiffRequest *R : Remaining)
      Containing.insert(R->Call->getFunction());
    SmallVector<AutodiffRequest *, 8> Blocked;
    for (AutodiffRequest *R : Remaining)
      (reachedFunction(R->Fn, [&](const Function *G) {
         return Containing.contains(G);
       })
           ? Blocked
           : Order)
          .push_back(R);
    if (Blocked.size() == Remaining.size())
      break; // A cycle: nothing is ready.
    Remaining = std::move(Blocked);
  }
  Order.append(Remaining.begin(), Remaining.end());
  return Order;
}

/// Custom derivatives are not implemented yet: differentiating the body of
/// a function whose author registered another derivative would silently
/// give a different result, so that is an error.
bool usesCustomDerivative(
    const AutodiffRequest &R,
    const DenseMap<const Function *, const GlobalVariable *> &Custom) {
  if (Custom.empty())
    return false;
  const Function *Registered = reachedFunction(
      R.Fn, [&](const Function *G) { return Custom.contains(G); });
  if (!Registered)
    return false;
  reportError(*R.Call, "'" + demangle(Registered->getName()) +
                           "' has a custom derivative registered by '" +
                           Custom.lookup(Registered)->getName() +
                           "', and custom derivatives are not supported yet");
  return true;
}

} // namespace

PreservedAnalyses AdjointPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallVector<CallBase *, 8> Calls = collectAutodiffCalls(M);
  if (Calls.empty()) {
    finalizeMarkerGlobals(M);
    return PreservedAnalyses::none();
  }
  if (PrintBefore)
    M.print(errs(), nullptr);

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::map<GradientKey, Function *, KeyLess> Gradients;
  SmallVector<Function *, 8> Generated;
  SmallVector<AutodiffRequest, 8> Requests;
  for (CallBase *Call : Calls) {
    if (std::optional<AutodiffRequest> R = parseAutodiffCall(*Call))
      Requests.push_back(std::move(*R));
    else
      discardAutodiffCall(*Call);
  }
  auto CustomDerivatives = collectCustomDerivatives(M);
  ForwardDerivatives Forward(M, FAM);
  for (AutodiffRequest *R : orderInnerFirst(Requests)) {
    CallBase *Call = R->Call;
    if (R->Mode == DiffMode::Forward) {
      Function *Derivative = Forward.serve(*R);
      if (!Derivative || !lowerAutodiffCall(*R, *Derivative))
        discardAutodiffCall(*Call);
      continue;
    }
    if (usesCustomDerivative(*R, CustomDerivatives)) {
      discardAutodiffCall(*Call);
      continue;
    }
    auto [It, Inserted] =
        Gradients.try_emplace({R->Fn, R->activities()}, nullptr);
    if (Inserted) {
      It->second = buildGradient(*R, FAM, PlanOut);
      if (It->second)
        Generated.push_back(It->second);
    }
    if (!It->second || !lowerAutodiffCall(*R, *It->second))
      discardAutodiffCall(*Call);
  }

  FunctionPassManager Cleanup;
  if (PB && Level != OptimizationLevel::O0) {
    Cleanup = PB->buildFunctionSimplificationPipeline(
        Level, ThinOrFullLTOPhase::None);
  } else {
    Cleanup.addPass(InstCombinePass());
    Cleanup.addPass(SimplifyCFGPass());
    Cleanup.addPass(ADCEPass());
  }
  Generated.append(Forward.built().begin(), Forward.built().end());
  for (Function *G : Generated) {
    FAM.clear(*G, G->getName());
    Cleanup.run(*G, FAM);
  }

  removeUnusedEntryPoints(M);
  finalizeMarkerGlobals(M);
  if (PrintAfter)
    M.print(errs(), nullptr);
  return PreservedAnalyses::none();
}

PreservedAnalyses CachePlanPrinterPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  // A printer must not change the module: plan (and synthesize) on a copy.
  std::unique_ptr<Module> Copy = CloneModule(M);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  AdjointPass(nullptr, OptimizationLevel::O0, &OS).run(*Copy, MAM);
  return PreservedAnalyses::all();
}

PreservedAnalyses ProtectCustomDerivativesPass::run(Module &M,
                                                   ModuleAnalysisManager &) {
  bool Changed = false;
  for (auto [F, Registration] : collectCustomDerivatives(M)) {
    auto *Fn = const_cast<Function *>(F);
    // noduplicate: function specialization would otherwise call a clone
    // for constant arguments, which no registration names.
    for (Attribute::AttrKind Kind :
         {Attribute::NoInline, Attribute::NoDuplicate}) {
      if (Fn->hasFnAttribute(Kind))
        continue;
      Fn->addFnAttr(Kind);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace adjoint
