//===- KnownFunctions.h - Types stated by TBAA and libraries ----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Two sources of type facts that are not in the IR types: the TBAA access
// tags clang attaches to loads and stores, and the signatures of library
// functions whose declarations say only `ptr` and `i64`.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_TYPEANALYSIS_KNOWNFUNCTIONS_H
#define ADJOINT_LIB_TYPEANALYSIS_KNOWNFUNCTIONS_H

#include "adjoint/TypeAnalysis/TypeTree.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class MDNode;
class Module;
} // namespace llvm

namespace adjoint {

/// The scalar type that the TBAA access tag \p Tag names: Double for
/// "double", Integer for "int" or "long", Pointer for "any pointer" or
/// "p1 int", ... Unknown for char (which may alias anything), structs
/// and names it does not know. \p M gives the target, which decides what
/// "long double" is.
ConcreteType tbaaAccessType(const llvm::MDNode *Tag, const llvm::Module &M);

/// Does the TBAA access tag \p Tag mark an access to a field of one of
/// flang's descriptors ("descriptor member")? The fields are the base
/// address and integers (sizes, rank, type, bounds, strides), never floats.
bool isFortranDescriptorAccess(const llvm::MDNode *Tag);

/// What a library function states about its arguments and result, one
/// token per position, the result first:
///   .    nothing beyond the IR type
///   i    an integer (every byte Integer)
///   *i   a pointer to a C int (4 bytes Integer at [0])
///   *p   a pointer to a pointer
///   *a   a pointer to a value of the IR type of the first argument (modf,
///        sincos: the float kind follows the f/l suffix)
///   =a   a pointer to memory like the first argument's (realloc)
///   cpy  memcpy/memmove: the first two arguments' memory is copied
/// Returns the empty string for functions it does not know.
llvm::StringRef knownSignature(llvm::StringRef Name);

} // namespace adjoint

#endif // ADJOINT_LIB_TYPEANALYSIS_KNOWNFUNCTIONS_H
