//===- adjoint/Support/Diagnostics.h - User-facing errors -------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every error Adjoint reports goes through here, so that all of them carry
// the source location of the offending construct (when the module has debug
// info) and reach the user through LLVM's diagnostic machinery: clang prints
// them as ordinary compiler errors and fails the compilation, opt exits with
// a non-zero status. flang drops such diagnostics; there Adjoint prints them
// itself and stops the compilation.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_DIAGNOSTICS_H
#define ADJOINT_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace adjoint {

/// Reports an error located at \p At (an instruction of any function).
/// \p Message says what is wrong and what to do about it.
void reportError(const llvm::Instruction &At, const llvm::Twine &Message);

/// Ends the compilation if errors were reported to a host that does not
/// show them (flang; see Diagnostics.cpp), after they were printed. The
/// plugin calls this once its pass is done; elsewhere it does nothing.
void stopIfErrorsDropped();

/// Describes where \p I is in source terms, "file.c:12:3" when debug info is
/// present, otherwise "function 'f'". For messages that mention a second
/// location besides the one the diagnostic points at.
std::string describeLocation(const llvm::Instruction &I);

/// Names the type \p T for a message: `double`, `ptr`, `{ double, double }`,
/// or a named struct's name (not its whole body).
std::string describeType(const llvm::Type *T);

/// Spells the scalar type \p T as C would, for signatures in messages:
/// `double`, `long double`, `void *` (IR pointers have lost their pointee
/// type), `int`, ...; other types as describeType does.
std::string describeCType(const llvm::Type *T);

/// Names \p V for a message without printing IR: the source-level name of a
/// function or value when it has one, else its kind.
std::string describeValue(const llvm::Value &V);

} // namespace adjoint

#endif // ADJOINT_SUPPORT_DIAGNOSTICS_H
