//===- AdjointPass.cpp - The module pass ------------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Plugin/AdjointPass.h"
#include "DerivativeSet.h"
#include "ForwardDerivatives.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Planning/CachePlan.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"
#include "adjoint/Synthesis/CachePool.h"
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
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <map>

#define DEBUG_TYPE "adjoint"

using namespace llvm;

static cl::opt<bool> PrintBefore("adjoint-print-before", cl::Hidden,
                                 cl::desc("Print the module before AD"));
static cl::opt<bool> PrintAfter("adjoint-print-after", cl::Hidden,
                                cl::desc("Print the module after AD"));

namespace adjoint {

namespace {

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
  SmallVector<AutodiffRequest, 8> Requests;
  for (CallBase *Call : Calls) {
    if (std::optional<AutodiffRequest> R = parseAutodiffCall(*Call))
      Requests.push_back(std::move(*R));
    else
      discardAutodiffCall(*Call);
  }
  DerivativeSet Derivatives(M, FAM, PlanOut);
  ForwardDerivatives Forward(M, FAM);
  for (AutodiffRequest *R : orderInnerFirst(Requests)) {
    CallBase *Call = R->Call;
    if (R->Mode == DiffMode::Forward) {
      Function *Derivative = Forward.serve(*R);
      if (!Derivative || !lowerAutodiffCall(*R, *Derivative))
        discardAutodiffCall(*Call);
      continue;
    }
    if (R->Mode == DiffMode::TapeSize) {
      lowerTapeSizeCall(*R);
      continue;
    }
    if (R->Mode == DiffMode::AugmentedForward ||
        R->Mode == DiffMode::ReverseFromTape) {
      CallPattern P{R->activities(),
                    isFloatAggregate(R->Fn->getReturnType()) ||
                        R->Fn->getReturnType()->isPointerTy()};
      CallDerivative Pair = Derivatives.splitPair(*R->Fn, P, *Call);
      bool Lowered = Pair && (R->Mode == DiffMode::AugmentedForward
                                  ? lowerAugmentedCall(*R, *Pair.Augmented)
                                  : lowerReverseCall(*R, *Pair.Reverse));
      if (!Lowered)
        discardAutodiffCall(*Call);
      continue;
    }
    Function *Gradient = Derivatives.gradient(*R);
    if (!Gradient || !lowerAutodiffCall(*R, *Gradient))
      discardAutodiffCall(*Call);
  }

  defineCachePool(M);

  FunctionPassManager Cleanup;
  if (PB && Level != OptimizationLevel::O0) {
    Cleanup = PB->buildFunctionSimplificationPipeline(
        Level, ThinOrFullLTOPhase::None);
  } else {
    Cleanup.addPass(InstCombinePass());
    Cleanup.addPass(SimplifyCFGPass());
    Cleanup.addPass(ADCEPass());
  }
  SmallVector<Function *, 8> Generated(Derivatives.generated());
  Generated.append(Forward.built().begin(), Forward.built().end());
  for (Function *G : Generated) {
    FAM.clear(*G, G->getName());
    Cleanup.run(*G, FAM);
  }

  removeUnusedEntryPoints(M);
  finalizeMarkerGlobals(M);
  removeUnusedLibraryModels(M);
  if (PrintAfter)
    M.print(errs(), nullptr);
  stopIfErrorsDropped();
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
  SmallVector<GlobalValue *, 8> Pinned;
  collectUsedGlobalVariables(M, Pinned, /*CompilerUsed=*/true);
  SmallVector<GlobalValue *, 4> ToPin;
  // One prefix at a time: a function may have both a gradient and a
  // forward derivative registered, and each registration must be kept.
  for (StringRef Prefix :
       {"__enzyme_register_gradient", "__enzyme_register_derivative"}) {
    for (auto [F, Registration] : collectCustomDerivatives(M, Prefix)) {
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
      // Nothing in the program reads a registration. With LTO, the linker
      // drops globals that nothing refers to before its optimization
      // starts (and internalizes the rest), so AD at link time would never
      // see it; llvm.compiler.used keeps it, also in the summary of an
      // -flto object.
      auto *GV = const_cast<GlobalVariable *>(Registration);
      if (!is_contained(Pinned, GV))
        ToPin.push_back(GV);
    }
  }
  if (!ToPin.empty()) {
    appendToCompilerUsed(M, ToPin);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace adjoint
