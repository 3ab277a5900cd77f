//===- adjoint/Preprocess/Preprocess.h - Canonical form for AD --*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// AD never touches the user's function. It differentiates a private clone
// that LLVM's own passes have put into a canonical form (SSA registers
// instead of stack slots, simplified CFG, folded arithmetic), so that the
// IR of -O0 and -O3 builds looks alike to the later stages.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PREPROCESS_PREPROCESS_H
#define ADJOINT_PREPROCESS_PREPROCESS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class CallBase;
class Loop;
class PHINode;
} // namespace llvm

namespace adjoint {

/// Clones \p F into a new internal function of the same module, inlines the
/// functions it calls that are defined in the module (except recursion and
/// those \p KeepCallsTo names, e.g. functions with custom derivatives),
/// takes the unwind paths of calls that may throw as not taken, and
/// canonicalizes the clone with \p FAM's passes; calls through function
/// pointers that the clone itself stored are made direct and inlined too.
/// The caller owns the clone and erases it when done.
llvm::Function *cloneForDifferentiation(
    llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
    llvm::function_ref<bool(const llvm::Function &)> KeepCallsTo = {});

/// Library models (LibraryModels.cpp): if the declared function \p Call
/// calls has a model (a differentiable body that Adjoint carries for a
/// library without IR, such as flang's runtime) that applies to this call,
/// redirects the call to the model, linked into the module as an internal
/// function on first use, and returns the new call; otherwise returns null
/// and leaves \p Call alone.
llvm::CallBase *substituteLibraryModel(llvm::CallBase &Call);

/// Drops the marks that keep the calls models make from being redirected to
/// models themselves, once the models are inlined into \p F.
void dropModelCallMarks(llvm::Function &F);

/// Does the library function \p Name have a model?
bool hasLibraryModel(llvm::StringRef Name);

/// Does the model of what \p Call calls apply to it (FortranDescriptors.cpp)?
/// The models of the Fortran runtime's functions of every type only do
/// REAL data: they apply where the descriptor that decides is known to
/// describe REAL data.
bool modelApplies(const llvm::CallBase &Call);

/// substituteLibraryModel on every call of \p F whose callee \p KeepCallsTo
/// does not name. Returns whether any call was redirected.
bool substituteLibraryModels(
    llvm::Function &F,
    llvm::function_ref<bool(const llvm::Function &)> KeepCallsTo = {});

/// Is \p F a library model, or a helper one calls?
bool isLibraryModel(const llvm::Function &F);

/// Erases the models of \p M that nothing calls any more (the clones that
/// called them have been differentiated).
void removeUnusedLibraryModels(llvm::Module &M);

/// The blocks of \p F from which a `ret` is reachable. Code outside them
/// only runs on the way to a throw, an abort or an endless loop: the
/// gradient is not completed on those paths.
llvm::SmallPtrSet<const llvm::BasicBlock *, 32>
blocksReachingReturn(const llvm::Function &F);

/// Takes the unwind edges of \p F's invokes as never taken (UnwindPaths.cpp):
/// each invoke whose landing pad only cleans up or terminates becomes a call
/// and a branch to its normal destination, and the landing pads left
/// unreachable are removed. Invokes into handlers that may catch the
/// exception stay. cloneForDifferentiation does this right after inlining.
/// Returns whether anything changed.
bool dropUnwindPaths(llvm::Function &F);

/// Does \p F call through a function pointer?
bool hasIndirectCalls(const llvm::Function &F);

/// Replaces each load in \p F of a pointer that \p F itself stored as a
/// constant (a function, a vtable, null; as MemorySSA tells: the last store
/// to the location loaded writes exactly it) by that constant
/// (IndirectCalls.cpp). With \p Descriptors, it is loads from stack slots
/// instead (of any type: the rank and type that flang stores into a
/// descriptor, the descriptor a runtime function's state points to), and
/// the stored value may also be an argument or another stack slot. Returns
/// whether any was replaced.
bool forwardStoredConstants(llvm::Function &F,
                            llvm::FunctionAnalysisManager &FAM,
                            bool Descriptors = false);

class FunctionTypeInfo;

/// Puts the loops of \p F into the form the reverse pass relies on
/// (LoopCanonicalForm.cpp): loop-simplify and LCSSA form, a canonical
/// induction variable per loop (see getCanonicalIV), and every other affine
/// induction variable computed from it. cloneForDifferentiation does this
/// last. Returns false when some loop cannot have that form (a loop entered
/// through indirectbr); such loops are left as they are.
bool canonicalizeLoops(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// canonicalizeLoops as a pass, `adjoint-canonicalize-loops`, so that tests
/// can look at the form the reverse pass gets.
struct LoopCanonicalFormPass : llvm::PassInfoMixin<LoopCanonicalFormPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM) {
    canonicalizeLoops(F, FAM);
    return llvm::PreservedAnalyses::none();
  }
};

/// The canonical induction variable of \p L, which canonicalizeLoops puts
/// first in its header: an i64 that counts iterations from 0. Null if \p L
/// has none.
llvm::PHINode *getCanonicalIV(const llvm::Loop &L);

/// The second canonicalization step, once the type analysis (stage 2) has
/// run on the clone: integer loads and stores that move floating-point
/// numbers (optimized copies of doubles through i64) become floating-point
/// ones, and those that move pointers (a std::unique_ptr moved as an i64)
/// pointer ones. Returns whether anything changed, in which case the type
/// analysis must be run again on \p F.
bool retypeFloatAccesses(llvm::Function &F, const FunctionTypeInfo &Types);

} // namespace adjoint

#endif // ADJOINT_PREPROCESS_PREPROCESS_H
