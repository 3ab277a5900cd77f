//===- AdjointPass.cpp - The module pass ------------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Plugin/AdjointPass.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Synthesis/GradientSynthesis.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include <map>

#define DEBUG_TYPE "adjoint"

using namespace llvm;

static cl::opt<bool> PrintBefore("adjoint-print-before", cl::Hidden,
                                 cl::desc("Print the module before AD"));
static cl::opt<bool> PrintAfter("adjoint-print-after", cl::Hidden,
                                cl::desc("Print the module after AD"));

namespace adjoint {

namespace {

SmallVector<CallBase *, 8> collectAutodiffCalls(Module &M) {
  SmallVector<CallBase *, 8> Calls;
  for (Function &F : M) {
    if (!F.getName().starts_with(AutodiffPrefix))
      continue;
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledOperand() == &F)
        Calls.push_back(Call);
  }
  return Calls;
}

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
Function *buildGradient(const AutodiffRequest &R,
                        FunctionAnalysisManager &FAM) {
  SmallVector<ArgActivity, 8> Activities = R.activities();
  Function *Primal = cloneForDifferentiation(*R.Fn, FAM);
  ActivityInfo Activity(*Primal, Activities);
  LLVM_DEBUG(Activity.print(dbgs()));
  GradientRequest GR{*Primal, Activities, Activity, R.Fn->getName(), *R.Call};
  return synthesizeGradient(GR, R.Fn->getName() + ".adjoint.grad");
}

void removeUnusedEntryPoints(Module &M) {
  for (Function &F : make_early_inc_range(M))
    if (F.getName().starts_with(AutodiffPrefix) && F.use_empty())
      F.eraseFromParent();
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
  for (CallBase *Call : Calls) {
    std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
    if (!R) {
      discardAutodiffCall(*Call);
      continue;
    }
    auto [It, Inserted] =
        Gradients.try_emplace({R->Fn, R->activities()}, nullptr);
    if (Inserted) {
      It->second = buildGradient(*R, FAM);
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

} // namespace adjoint
