//===- adjoint/Support/LinkTime.h - Which half of an LTO build -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// With link-time optimization a module is compiled twice: each file into
// bitcode, then the bitcode of the whole program at link time. AD must run
// where the function to differentiate is visible, and errors must tell the
// user which of the two compilations could not see it.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_LINKTIME_H
#define ADJOINT_SUPPORT_LINKTIME_H

namespace llvm {
class Module;
} // namespace llvm

namespace adjoint {

/// The kind of LTO a module was prepared for.
enum class LTOKind {
  None, ///< compiled to an object file on its own
  Full, ///< -flto: bitcode to be merged with the whole program at link time
  Thin, ///< -flto=thin: bitcode that the linker compiles module by module
};

/// Reads the module flags clang 19 adds when it writes bitcode for LTO:
/// "ThinLTO" = 0 for full LTO, "EnableSplitLTOUnit" for either kind. They
/// are already set when the optimization pipeline runs, and stay on the
/// module the linker merges, so at link time a full-LTO module is still
/// `Full`. flang 19 sets neither: its modules are `None`.
LTOKind getLTOKind(const llvm::Module &M);

} // namespace adjoint

#endif // ADJOINT_SUPPORT_LINKTIME_H
