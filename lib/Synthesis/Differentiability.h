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

struct GradientRequest;

/// Reports, as located errors, every construct of the request's function
/// that reverse mode cannot differentiate (yet), naming the user's function
/// and the requesting call. Returns true when there is none.
bool checkDifferentiable(const GradientRequest &R);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_DIFFERENTIABILITY_H
