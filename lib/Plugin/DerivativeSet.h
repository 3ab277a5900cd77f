//===- DerivativeSet.h - Every derivative function of a module --*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs the stages (Preprocess, TypeAnalysis, Activity, Synthesis) for each
// derivative function the module needs, and owns them: one gradient per
// (function, activities) that __enzyme_autodiff requests, and one pair of
// augmented forward and reverse functions per (function, call pattern)
// that a gradient calls. A pair is declared when first asked for and built
// afterwards, so that recursion (a pair calling itself) terminates; the
// number of functions grows with the distinct patterns, not with the calls.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_PLUGIN_DERIVATIVESET_H
#define ADJOINT_LIB_PLUGIN_DERIVATIVESET_H

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Synthesis/CallDerivatives.h"

#include "llvm/IR/PassManager.h"
#include <functional>
#include <map>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace adjoint {

class DerivativeSet : public CallDerivativeProvider {
public:
  DerivativeSet(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
                llvm::raw_ostream *PlanOut);

  /// The gradient that serves \p R, built (with every pair it calls) on
  /// first use; null after reporting an error.
  llvm::Function *gradient(const AutodiffRequest &R);

  /// The split pair of \p Fn for \p P, built (with every pair it calls) on
  /// first use, for __enzyme_augmentfwd and __enzyme_reverse.
  CallDerivative splitPair(llvm::Function &Fn, const CallPattern &P,
                           const llvm::CallBase &Site);

  CallDerivative get(llvm::Function &Callee, const CallPattern &P,
                     const llvm::CallBase &Site) override;
  CallDerivative getIndirect(llvm::FunctionType *FTy, const CallPattern &P,
                             const llvm::CallBase &Site) override;
  bool canDifferentiate(const llvm::Function &Callee) const override;

  /// Every function built, for the cleanup pipeline.
  llvm::ArrayRef<llvm::Function *> generated() const { return Generated; }

private:
  struct PendingPair {
    llvm::Function *Callee;
    CallPattern Pattern;
    CallDerivative Pair;
  };
  void buildPending(const llvm::CallBase &Site);
  /// Calls the clones keep (not inlined): those with custom gradients.
  std::function<bool(const llvm::Function &)> keepCallsTo() const {
    return [this](const llvm::Function &F) {
      return CustomGradients.contains(&F);
    };
  }
  void buildPair(const PendingPair &P, const llvm::CallBase &Site);

  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  llvm::raw_ostream *PlanOut;
  /// Functions with a custom gradient, and its registration.
  llvm::DenseMap<const llvm::Function *, const llvm::GlobalVariable *>
      CustomGradients;
  std::map<std::pair<llvm::Function *, llvm::SmallVector<ArgActivity, 8>>,
           llvm::Function *>
      Gradients;
  std::map<std::pair<llvm::Function *, CallPattern>, CallDerivative> Pairs;
  llvm::SmallVector<PendingPair, 8> Pending;
  std::map<std::pair<llvm::FunctionType *, CallPattern>, CallDerivative>
      Dispatchers;
  llvm::SmallVector<llvm::Function *, 8> Generated;
};

} // namespace adjoint

#endif // ADJOINT_LIB_PLUGIN_DERIVATIVESET_H
