//===- adjoint/Synthesis/CallDerivatives.h - Calls in gradients -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A call that stays a call in the differentiated clone (recursion, a custom
// derivative, a function pointer) is differentiated through a pair of
// functions for the callee and the way the call site uses it:
//
//   augmented  F's parameters, each enzyme_dup one followed by its shadow
//              -> { ptr tape, [F's return value], [its shadow] }
//              does F's work and returns what its reverse needs (the tape,
//              an opaque heap record; null when the reverse needs nothing)
//   reverse    the same parameters, [the adjoint of F's return value],
//              ptr tape -> the gradients of the enzyme_out parameters
//              (nothing, one value, or a struct, as gradientFunctionType)
//              accumulates into shadows and frees the tape
//
// The same pair serves __enzyme_augmentfwd / __enzyme_reverse (split mode).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SYNTHESIS_CALLDERIVATIVES_H
#define ADJOINT_SYNTHESIS_CALLDERIVATIVES_H

#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Module;
class Type;
} // namespace llvm

namespace adjoint {

/// How a call site uses its callee: the activity of each argument (Dup for
/// pointers with shadows, Out for active floating-point values, Const
/// otherwise) and whether the adjoint of the returned value is needed.
struct CallPattern {
  llvm::SmallVector<ArgActivity, 8> Args;
  bool ActiveReturn = false;

  bool operator<(const CallPattern &O) const {
    return std::tie(Args, ActiveReturn) < std::tie(O.Args, O.ActiveReturn);
  }
  /// A short spelling for function names: one letter per argument (c, d,
  /// o), then `r` when the return is active.
  std::string mangle() const;
};

/// Does the pattern's return value have an adjoint that the reverse takes
/// as a parameter (a floating-point return that is active)?
bool takesReturnAdjoint(const llvm::FunctionType *FTy, const CallPattern &P);
/// Does the augmented function return the shadow of F's returned pointer?
bool returnsShadow(const llvm::FunctionType *FTy, const CallPattern &P);

llvm::FunctionType *augmentedFunctionType(llvm::FunctionType *FTy,
                                          const CallPattern &P);
llvm::FunctionType *reverseFunctionType(llvm::FunctionType *FTy,
                                        const CallPattern &P);

/// The augmented and reverse functions of one (function, pattern); their
/// bodies may be filled in later (recursion calls a pair being built).
struct CallDerivative {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Reverse = nullptr;
  explicit operator bool() const { return Augmented && Reverse; }
};

/// Where synthesis gets the derivative functions of the calls it keeps.
class CallDerivativeProvider {
public:
  virtual ~CallDerivativeProvider() = default;
  /// The pair for \p Callee called as \p P; empty (after reporting at
  /// \p Site why) if there can be none.
  virtual CallDerivative get(llvm::Function &Callee, const CallPattern &P,
                             const llvm::CallBase &Site) = 0;
  /// The pair for calls through a pointer to functions of type \p FTy:
  /// both take the pointer first, then the arguments as above, and call the
  /// pair of the function the pointer holds.
  virtual CallDerivative getIndirect(llvm::FunctionType *FTy,
                                     const CallPattern &P,
                                     const llvm::CallBase &Site) = 0;
  /// Can calls to \p Callee get a pair (a function defined in the module,
  /// or one with a registered custom derivative)?
  virtual bool canDifferentiate(const llvm::Function &Callee) const = 0;
};

/// A gradient (gradientFunctionType) of \p F for \p Activities made of
/// its pair \p Pair: the augmented forward, then the reverse seeded with 1
/// when \p F returns a floating-point value.
llvm::Function *gradientFromPair(llvm::Function &F,
                                 llvm::ArrayRef<ArgActivity> Activities,
                                 const CallDerivative &Pair,
                                 const llvm::Twine &Name);

/// The dispatching pair for calls through pointers to functions of type
/// \p FTy (CallDerivativeProvider::getIndirect): compares the pointer with
/// each of \p Targets and calls its pair; any other target aborts the
/// program with a message naming it.
CallDerivative buildDispatchPair(
    llvm::FunctionType *FTy, const CallPattern &P,
    llvm::ArrayRef<std::pair<llvm::Function *, CallDerivative>> Targets,
    llvm::Module &M);

/// Is \p Call differentiated through a pair from \p Calls (see above)
/// rather than by a rule or as an allocation? Indirect calls are. False
/// without \p Calls.
bool isDifferentiatedAsCall(const llvm::CallBase &Call,
                            const CallDerivativeProvider *Calls);

} // namespace adjoint

#endif // ADJOINT_SYNTHESIS_CALLDERIVATIVES_H
