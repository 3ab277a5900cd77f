//===- CustomDerivativeCalls.h - Calling registered derivatives -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A registered forward derivative f_fwd of f takes f's arguments, each
// floating-point value and pointer followed by its tangent (a shadow, for a
// pointer), and returns the tangent of f's floating-point result
// (shared/api-semantics.md, "Custom derivatives"). Whether a given f_fwd
// can be called that way is decided per call of f, since which arguments
// carry derivatives depends on the call.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVECALLS_H
#define ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVECALLS_H

#include "adjoint/Frontend/CustomDerivatives.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include <optional>

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace adjoint {

/// For each argument of a call: does a tangent follow it in the call of the
/// registered derivative?
using TangentSlots = llvm::SmallVector<bool, 8>;

/// How \p C.Derivative is called in place of differentiating \p Call (a
/// call of the function it is registered for): every floating-point and
/// pointer argument followed by its tangent, or only those that \p IsActive
/// says carry derivatives at this call (its activity pattern). Otherwise
/// reports, at \p Call, the signature that was expected, with \p Context
/// appended, and returns std::nullopt.
std::optional<TangentSlots>
matchCustomDerivative(const llvm::CallBase &Call,
                      const CustomForwardDerivative &C,
                      llvm::function_ref<bool(const llvm::Value *)> IsActive,
                      const llvm::Twine &Context);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_CUSTOMDERIVATIVECALLS_H
