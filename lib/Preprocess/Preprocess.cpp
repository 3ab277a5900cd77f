//===- Preprocess.cpp - Canonical form for AD -------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/IR/Function.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

using namespace llvm;

namespace adjoint {

namespace {

FunctionPassManager buildCanonicalizationPipeline() {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(PromotePass());
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  return FPM;
}

} // namespace

Function *cloneForDifferentiation(Function &F, FunctionAnalysisManager &FAM) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + ".adjoint.primal");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  // At -O0 clang marks everything optnone, which would make the
  // canonicalization passes skip the clone.
  Clone->removeFnAttr(Attribute::OptimizeNone);
  Clone->removeFnAttr(Attribute::NoInline);

  FunctionPassManager FPM = buildCanonicalizationPipeline();
  FPM.run(*Clone, FAM);
  FAM.clear(*Clone, Clone->getName());
  return Clone;
}

} // namespace adjoint
