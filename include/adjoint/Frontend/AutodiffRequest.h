//===- adjoint/Frontend/AutodiffRequest.h - Parse API calls -----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The frontend reads a call to __enzyme_autodiff or __enzyme_fwddiff and
// turns it into a request: which function to differentiate and in which
// mode, the activity of each of its parameters, the values (and shadows or
// tangents) the caller passes, and how the caller expects the derivatives
// back. It owns the API contract of shared/api-semantics.md and
// nothing else: it never looks at the body of the differentiated function.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_FRONTEND_AUTODIFFREQUEST_H
#define ADJOINT_FRONTEND_AUTODIFFREQUEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class Module;
class Type;
class Value;
} // namespace llvm

namespace adjoint {

/// Which derivative a request asks for.
enum class DiffMode {
  Reverse, ///< __enzyme_autodiff: gradients of the inputs.
  Forward, ///< __enzyme_fwddiff: the tangent of the outputs.
  /// Split reverse mode: __enzyme_augmentfwd does the primal work and
  /// returns a tape, __enzyme_reverse later computes the gradients from it.
  AugmentedForward,
  ReverseFromTape,
  TapeSize, ///< __enzyme_augmentsize: how many bytes a tape takes.
};

/// The entry point that asks for \p M, for messages: "__enzyme_autodiff".
llvm::StringRef entryPointName(DiffMode M);

/// How a parameter of the differentiated function takes part in AD.
enum class ArgActivity {
  Const,     ///< Not differentiated.
  Dup,       ///< Pointer with a shadow pointer of the same shape; in forward
             ///< mode also a floating-point value followed by its tangent.
  DupNoNeed, ///< As Dup; primal results written through it are not needed.
  Out,       ///< Active scalar by value; its gradient is returned.
};

llvm::StringRef activityName(ArgActivity A);

/// True for the activities that consume a shadow argument.
inline bool hasShadow(ArgActivity A) {
  return A == ArgActivity::Dup || A == ArgActivity::DupNoNeed;
}

/// One parameter of the differentiated function, as the caller supplied it.
struct RequestArg {
  ArgActivity Activity = ArgActivity::Const;
  llvm::Value *Primal = nullptr; ///< Already converted to the parameter type.
  llvm::Value *Shadow = nullptr; ///< Only for Dup and DupNoNeed.
};

/// A parsed call to an entry point.
struct AutodiffRequest {
  llvm::CallBase *Call = nullptr;
  DiffMode Mode = DiffMode::Reverse;
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<RequestArg, 8> Args; ///< One per parameter of Fn.
  /// Split mode: the adjoint of Fn's floating-point result (reverse), the
  /// tape (reverse), or the buffer of `enzyme_tape, buffer` that holds it.
  llvm::Value *ReturnAdjoint = nullptr;
  llvm::Value *TapeBuffer = nullptr;
  /// The operand of Call that passes the tape. An index, not the value:
  /// the tape is usually the result of an __enzyme_augmentfwd call that is
  /// replaced before this request is lowered.
  std::optional<unsigned> TapeOperand;

  /// The activity pattern: together with Fn and Mode, what identifies the
  /// function that serves this request.
  llvm::SmallVector<ArgActivity, 8> activities() const;
};

/// Prefix of the reverse-mode entry points (`__enzyme_autodiff`,
/// `__enzyme_autodiff_f`, ...), and of every Enzyme entry point.
constexpr llvm::StringLiteral AutodiffPrefix = "__enzyme_autodiff";
constexpr llvm::StringLiteral EnzymePrefix = "__enzyme_";

/// The calls to the entry points Adjoint implements (__enzyme_autodiff,
/// __enzyme_fwddiff) in \p M, including calls through a local variable
/// holding the entry point (as at -O0). Calls to other Enzyme entry points,
/// which Adjoint does not implement yet, are reported as errors and removed.
llvm::SmallVector<llvm::CallBase *, 8> collectAutodiffCalls(llvm::Module &M);

/// The functions that have a custom derivative registered through a global
/// `__enzyme_register_gradient_NAME` / `__enzyme_register_derivative_NAME`,
/// mapped to that global; only those whose name starts with \p Prefix
/// (e.g. "__enzyme_register_gradient" for reverse mode's).
llvm::DenseMap<const llvm::Function *, const llvm::GlobalVariable *>
collectCustomDerivatives(const llvm::Module &M,
                         llvm::StringRef Prefix = "__enzyme_register_");

/// Removes the declarations of entry points that are no longer called.
void removeUnusedEntryPoints(llvm::Module &M);

/// Is \p GV one of the activity-marker globals (enzyme_dup, ...)?
std::optional<ArgActivity> markerActivity(llvm::StringRef GlobalName);

/// Does the entry-point call \p Call return its result through a buffer
/// passed as its first argument (a large struct return, `sret`)? The
/// function to differentiate is then the second argument.
bool returnsThroughBuffer(const llvm::CallBase &Call);

/// Parses \p Call. On misuse, reports an error located at the call and
/// returns std::nullopt. Inserts conversions (undoing C's variadic
/// promotions) before the call.
std::optional<AutodiffRequest> parseAutodiffCall(llvm::CallBase &Call);

/// Replaces the call of \p R with a call to \p Gradient (see
/// GradientSynthesis.h and ForwardMode.h), converting what it returns (the
/// gradients, or in forward mode the tangent) to the return type the caller
/// declared for the entry point: void, one scalar, a struct or vector of
/// them, or a struct returned through an sret pointer. Reports an error and
/// returns false when they do not match.
/// \p Trailing arguments follow the arguments and shadows (the return's
/// adjoint and the tape of a split-mode reverse).
bool lowerAutodiffCall(const AutodiffRequest &R, llvm::Function &Gradient,
                       llvm::ArrayRef<llvm::Value *> Trailing = {});

/// Split mode: replaces an __enzyme_augmentfwd call with a call to
/// \p Augmented (CallDerivatives.h), handing the caller the tape and the
/// result as its declared return type asks (`void *`, a struct of the tape
/// and the result, or the result alone when the tape goes to the buffer of
/// `enzyme_tape`). Reports an error and returns false when they do not fit.
bool lowerAugmentedCall(const AutodiffRequest &R, llvm::Function &Augmented);

/// Split mode: replaces an __enzyme_reverse call with a call to \p Reverse.
bool lowerReverseCall(const AutodiffRequest &R, llvm::Function &Reverse);

/// Replaces an __enzyme_augmentsize call with the size of a tape: Adjoint's
/// tapes are heap records, so what the caller keeps is one pointer.
void lowerTapeSizeCall(const AutodiffRequest &R);

/// Replaces a call that could not be served with a zero result, so that the
/// module stays valid after an error was reported.
void discardAutodiffCall(llvm::CallBase &Call);

/// After all calls were replaced: removes the marker loads that are now dead
/// and gives every marker global that is still referenced a definition, so
/// that programs which never define them still link.
void finalizeMarkerGlobals(llvm::Module &M);

} // namespace adjoint

#endif // ADJOINT_FRONTEND_AUTODIFFREQUEST_H
