//===- ForwardDerivatives.h - Forward derivatives of a module ---*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A forward derivative calls the forward derivatives of the functions its
// clone still calls (recursion, mutual recursion), one per (callee,
// activity pattern). This keeps them: each is declared when first asked
// for and built from a worklist, so that a recursive pattern is built once
// and calls itself. A request's derivatives are kept only if all of them
// could be built; they are shared with later requests.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_PLUGIN_FORWARDDERIVATIVES_H
#define ADJOINT_LIB_PLUGIN_FORWARDDERIVATIVES_H

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Frontend/CustomDerivatives.h"

#include "llvm/IR/PassManager.h"
#include <map>
#include <tuple>

namespace adjoint {

class ForwardDerivatives {
public:
  ForwardDerivatives(llvm::Module &M, llvm::FunctionAnalysisManager &FAM)
      : FAM(FAM), Custom(collectCustomForwardDerivatives(M)) {}

  /// The forward derivative that serves \p R, a forward-mode request, with
  /// every derivative it calls; null after reporting why it cannot be
  /// built.
  llvm::Function *serve(const AutodiffRequest &R);

  /// Every function built so far.
  llvm::ArrayRef<llvm::Function *> built() const { return Built; }

  /// The functions with a registered forward derivative.
  bool hasCustomDerivative(const llvm::Function &F) const {
    return Custom.contains(&F);
  }

private:
  /// What identifies a forward derivative: the function, the activities of
  /// its parameters, and whether it returns the primal value too (when it
  /// replaces a call).
  using Key =
      std::tuple<llvm::Function *, llvm::SmallVector<ArgActivity, 8>, bool>;

  llvm::Function *declare(llvm::Function &Fn,
                          llvm::ArrayRef<ArgActivity> Pattern,
                          bool ReturnPrimal);
  bool build(const Key &K, llvm::Function &Into, const AutodiffRequest &Top);
  void discard(llvm::ArrayRef<std::pair<Key, llvm::Function *>> Failed);

  llvm::FunctionAnalysisManager &FAM;
  llvm::DenseMap<const llvm::Function *, CustomForwardDerivative> Custom;
  std::map<Key, llvm::Function *> Derivatives;
  /// Declared, not built yet.
  llvm::SmallVector<std::pair<Key, llvm::Function *>, 4> Pending;
  llvm::SmallVector<llvm::Function *, 8> Built;
};

} // namespace adjoint

#endif // ADJOINT_LIB_PLUGIN_FORWARDDERIVATIVES_H
