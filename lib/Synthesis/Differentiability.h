//===- Differentiability.h - Can synthesis handle this function? -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H
#define ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H

#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace adjoint {

class ActivityInfo;

/// Reports, as located errors, every construct of \p F that reverse mode
/// cannot differentiate (yet). \p SourceName and \p Site (the requesting
/// call) are named in the messages. Returns true when there is none.
bool checkDifferentiable(const llvm::Function &F, const ActivityInfo &Activity,
                         llvm::ArrayRef<ArgActivity> Activities,
                         llvm::StringRef SourceName,
                         const llvm::Instruction &Site);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H
