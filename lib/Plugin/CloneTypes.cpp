//===- CloneTypes.cpp - Type analysis of a clone to differentiate -----------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CloneTypes.h"

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "adjoint"

using namespace llvm;

namespace adjoint {

SmallVector<TypeTree, 8> callerArgumentTrees(const AutodiffRequest &R) {
  TypeAnalyzer CallerAnalyzer;
  CallerAnalyzer.setFollowCalls(false);
  const FunctionTypeInfo &CallerTypes =
      CallerAnalyzer.analyze(*R.Call->getFunction());
  SmallVector<TypeTree, 8> Trees;
  for (const RequestArg &A : R.Args)
    Trees.push_back(CallerTypes.getTree(A.Primal));
  return Trees;
}

const FunctionTypeInfo &analyzeClone(TypeAnalyzer &Analyzer, Function &Clone,
                                     ArrayRef<TypeTree> ArgTrees) {
  const FunctionTypeInfo *Types = &Analyzer.analyze(Clone, ArgTrees);
  if (retypeFloatAccesses(Clone, *Types)) {
    Analyzer.clear(); // Its summaries name values that are gone.
    Types = &Analyzer.analyze(Clone, ArgTrees);
  }
  LLVM_DEBUG(Types->print(dbgs()));
  return *Types;
}

} // namespace adjoint
