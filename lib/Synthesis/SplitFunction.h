//===- SplitFunction.h - Cut a gradient into its two halves -----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A split pair (CallDerivatives.h) is built as one function, forward pass
// then reverse pass, which meet in one block: the turn. Cutting it there
// gives the augmented function (everything before the turn, returning a
// tape of the values the reverse uses) and the reverse function (everything
// after, reading them back). Stack memory the reverse still uses moves to
// the heap, since the augmented function's frame is gone by then.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_SPLITFUNCTION_H
#define ADJOINT_LIB_SYNTHESIS_SPLITFUNCTION_H

namespace llvm {
class BasicBlock;
class Function;
class PHINode;
} // namespace llvm

namespace adjoint {

struct CallDerivative;

/// Where a combined function turns from its forward pass to its reverse.
struct TurnPoint {
  /// Reached from every return of the forward pass; branches to the
  /// reverse and to nothing else.
  llvm::BasicBlock *Block = nullptr;
  llvm::PHINode *Return = nullptr;       ///< The returned value, if any.
  llvm::PHINode *ShadowReturn = nullptr; ///< Its shadow, if returned.
};

/// Moves the body of \p Combined into \p Into's augmented and reverse
/// functions, cut at \p Turn, and erases \p Combined.
void splitAtTurn(llvm::Function &Combined, const TurnPoint &Turn,
                 const CallDerivative &Into);

/// Gives the declaration \p F a body that traps: what stands in for a
/// derivative that could not be built (an error was reported).
void emitAbortingBody(llvm::Function &F);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_SPLITFUNCTION_H
