//===- adjoint/Frontend/CustomDerivatives.h - Registered derivatives -*- C++ -*-//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Programs replace the derivative of a function by registering their own
// through a global array (shared/api-semantics.md, "Custom derivatives").
// This reads the forward-mode registrations,
//
//   void *__enzyme_register_derivative_NAME[2] = {(void *)f, (void *)f_fwd};
//
// without judging them: whether f_fwd has the signature forward mode calls
// it with depends on the call site and is checked where f is called.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_FRONTEND_CUSTOMDERIVATIVES_H
#define ADJOINT_FRONTEND_CUSTOMDERIVATIVES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace adjoint {

/// Prefix of the globals that register a forward derivative.
constexpr llvm::StringLiteral ForwardRegistrationPrefix =
    "__enzyme_register_derivative";

/// The forward derivative registered for a function.
struct CustomForwardDerivative {
  const llvm::GlobalVariable *Registration; ///< For messages.
  llvm::Function *Derivative;               ///< f_fwd.
};

/// Every function of \p M with a registered forward derivative, mapped to
/// it. A registration whose second element is not a function registers
/// nothing.
llvm::DenseMap<const llvm::Function *, CustomForwardDerivative>
collectCustomForwardDerivatives(const llvm::Module &M);

} // namespace adjoint

#endif // ADJOINT_FRONTEND_CUSTOMDERIVATIVES_H
