//===- adjoint/Activity/ActivityAnalysis.h - What carries derivatives -*- C++ -*-//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A value is active when a derivative can flow through it: it depends on an
// active input (it is "varied") and an active output depends on it (it is
// "useful"). Memory takes part: varied data stored into an object makes the
// object's pointers varied, and every store through a varied pointer is an
// output (its shadow holds a seed), so the stored value is useful. Everything else is constant: synthesis emits no derivative code
// for it, which is what makes gradients of mixed integer/float code cheap.
//
// Both directions are data-flow fixed points computed with one worklist
// pass each, so the analysis is linear in the size of the function.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_ACTIVITY_ACTIVITYANALYSIS_H
#define ADJOINT_ACTIVITY_ACTIVITYANALYSIS_H

#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace adjoint {

class ActivityInfo {
public:
  /// Analyzes \p F for the given activity of each of its parameters. With
  /// \p ReturnIsOutput, the return value is an active output (a float whose
  /// adjoint the caller seeds, or a pointer through which it reads
  /// derivatives).
  /// \p IsOpaqueCall says which calls may read and write through every
  /// pointer they are given (those differentiated as calls); by default,
  /// calls to functions defined in the module and indirect calls.
  ActivityInfo(
      const llvm::Function &F, llvm::ArrayRef<ArgActivity> Args,
      bool ReturnIsOutput = true,
      llvm::function_ref<bool(const llvm::CallBase &)> IsOpaqueCall = {});

  /// Can a nonzero derivative flow through \p V?
  bool isActive(const llvm::Value *V) const {
    return Varied.contains(V) && Useful.contains(V);
  }
  /// Does \p V depend on an active input?
  bool isVaried(const llvm::Value *V) const { return Varied.contains(V); }
  /// Does an active output depend on \p V?
  bool isUseful(const llvm::Value *V) const { return Useful.contains(V); }

  void print(llvm::raw_ostream &OS) const;

private:
  void propagateVaried(llvm::ArrayRef<ArgActivity> Args);
  bool isOpaqueCall(const llvm::CallBase &Call) const;
  void markMemoryVaried(const llvm::Value *Ptr,
                        llvm::function_ref<void(const llvm::Value *)> Mark);
  void markNeighboursVaried(const llvm::Value *Ptr,
                            llvm::function_ref<void(const llvm::Value *)> Mark);
  void propagateUseful(bool ReturnIsOutput);
  /// The pointers stored into each object of \p F (the underlying objects
  /// of the stores' addresses).
  static llvm::DenseMap<const llvm::Value *,
                        llvm::SmallVector<const llvm::Value *, 2>>
  pointersStoredInto(const llvm::Function &F);

  const llvm::Function &F;
  llvm::function_ref<bool(const llvm::CallBase &)> OpaqueCall;
  /// Functions whose body a registered derivative replaces.
  llvm::DenseMap<const llvm::Function *, const llvm::GlobalVariable *>
      CustomDerivatives;
  llvm::SmallPtrSet<const llvm::Value *, 32> Varied;
  llvm::SmallPtrSet<const llvm::Value *, 32> Useful;
  /// For markMemoryVaried: what pointersStoredInto found, and the objects
  /// whose stored pointers it already marked.
  llvm::DenseMap<const llvm::Value *, llvm::SmallVector<const llvm::Value *, 2>>
      StoredPointers;
  llvm::SmallPtrSet<const llvm::Value *, 8> HoldersMarked;
};

/// The activities a parameter gets when the call gives it no marker.
llvm::SmallVector<ArgActivity, 8> defaultActivities(const llvm::Function &F);

/// `opt -passes='print<adjoint-activity>'`: prints, for every defined
/// function, the activity of each argument and instruction under the default
/// activities of its parameters.
class ActivityPrinterPass
    : public llvm::PassInfoMixin<ActivityPrinterPass> {
public:
  explicit ActivityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace adjoint

#endif // ADJOINT_ACTIVITY_ACTIVITYANALYSIS_H
