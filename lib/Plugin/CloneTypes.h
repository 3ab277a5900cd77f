//===- CloneTypes.h - Type analysis of a clone to differentiate -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What both derivative builders (DerivativeSet, ForwardDerivatives) do
// between cloning a function and analyzing its activity: seed the type
// analysis with what the requesting caller knows, and retype the clone's
// integer copies of floats.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_PLUGIN_CLONETYPES_H
#define ADJOINT_LIB_PLUGIN_CLONETYPES_H

#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/ADT/SmallVector.h"

namespace adjoint {

struct AutodiffRequest;

/// What the caller of \p R did with the memory it passes (how it filled
/// it), as a tree per argument of R.Fn. The caller's own calls are not
/// followed: that is all the seeding needs, and keeps this cheap however
/// large the caller's call graph is.
llvm::SmallVector<TypeTree, 8> callerArgumentTrees(const AutodiffRequest &R);

/// Analyzes \p Clone with \p Analyzer (fresh: synthesis consumes the clone,
/// so no summary may outlive it), after retyping the integer loads and
/// stores that move floats (Preprocess.h), which needs a first analysis.
const FunctionTypeInfo &analyzeClone(TypeAnalyzer &Analyzer,
                                     llvm::Function &Clone,
                                     llvm::ArrayRef<TypeTree> ArgTrees);

} // namespace adjoint

#endif // ADJOINT_LIB_PLUGIN_CLONETYPES_H
