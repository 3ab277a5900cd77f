//===- adjoint/Plugin/AdjointPass.h - The module pass -----------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The `adjoint` module pass (also registered as `enzyme`): finds every call
// to __enzyme_autodiff, runs the stages on it and replaces the call with a
// call to the generated gradient. Requests with the same function and
// activity pattern share one gradient function.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PLUGIN_ADJOINTPASS_H
#define ADJOINT_PLUGIN_ADJOINTPASS_H

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class PassBuilder;
class raw_ostream;
} // namespace llvm

namespace adjoint {

class AdjointPass : public llvm::PassInfoMixin<AdjointPass> {
public:
  /// \p PB and \p Level select the simplification pipeline that cleans up
  /// generated functions; without \p PB (or at O0) only a light cleanup
  /// runs (InstCombine, SimplifyCFG, ADCE), enough to fold the adjoint
  /// bookkeeping.
  /// With \p PlanOut, the cache plan of each gradient is printed there.
  explicit AdjointPass(llvm::PassBuilder *PB = nullptr,
                       llvm::OptimizationLevel Level =
                           llvm::OptimizationLevel::O2,
                       llvm::raw_ostream *PlanOut = nullptr)
      : PB(PB), Level(Level), PlanOut(PlanOut) {}

  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::PassBuilder *PB;
  llvm::OptimizationLevel Level;
  llvm::raw_ostream *PlanOut;
};

/// `print<adjoint-plan>`: for each gradient the module requests, what the
/// reverse pass recomputes and what it caches (adjoint/Planning/CachePlan.h).
/// Runs AD on a copy of the module; the module itself is unchanged.
class CachePlanPrinterPass : public llvm::PassInfoMixin<CachePlanPrinterPass> {
public:
  explicit CachePlanPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

/// Runs at the start of the optimization pipeline: keeps functions that
/// have a registered custom derivative (__enzyme_register_gradient_NAME, ...)
/// from being inlined or specialized before AD runs, so that AD still sees
/// the calls to them (and can tell that their custom derivative applies).
class ProtectCustomDerivativesPass
    : public llvm::PassInfoMixin<ProtectCustomDerivativesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace adjoint

#endif // ADJOINT_PLUGIN_ADJOINTPASS_H
