//===- adjoint/Support/TypeUtils.h - Which types carry derivatives -*- C++ -*-//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_TYPEUTILS_H
#define ADJOINT_SUPPORT_TYPEUTILS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Type;
} // namespace llvm

namespace adjoint {

/// A floating-point scalar or a vector, array or struct made only of them:
/// what can be passed `enzyme_out` and have a gradient returned.
bool isFloatAggregate(const llvm::Type *T);

/// Does any part of a value of type \p T hold a floating-point number?
bool containsFloat(const llvm::Type *T);

/// The scalar leaves of \p T in memory order, e.g. {double, <2 x float>}
/// gives double, float, float.
void flattenLeaves(llvm::Type *T, llvm::SmallVectorImpl<llvm::Type *> &Leaves);

} // namespace adjoint

#endif // ADJOINT_SUPPORT_TYPEUTILS_H
