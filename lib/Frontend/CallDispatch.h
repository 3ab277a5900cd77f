//===- CallDispatch.h - Calls on one of several known functions -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_FRONTEND_CALLDISPATCH_H
#define ADJOINT_LIB_FRONTEND_CALLDISPATCH_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
} // namespace llvm

namespace adjoint {

/// Splits \p Call, an entry-point call whose function is a select or phi of
/// known functions, into one call per function, chosen by comparing the
/// pointer, and returns those calls; returns \p Call alone when it names
/// one function, or one that is not known.
llvm::SmallVector<llvm::CallBase *, 2> dispatchOnFunction(llvm::CallBase &Call);

} // namespace adjoint

#endif // ADJOINT_LIB_FRONTEND_CALLDISPATCH_H
