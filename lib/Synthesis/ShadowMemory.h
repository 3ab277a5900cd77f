//===- ShadowMemory.h - Shadow pointers of the forward pass ----*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every active pointer has a shadow pointer: the same address in the memory
// that holds adjoints. The forward pass computes shadows alongside their
// primal pointers (a shadow GEP after each GEP, a zeroed shadow alloca next
// to each active alloca, ...), so that the reverse pass can read and
// accumulate adjoints at any address the forward pass touched.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_SHADOWMEMORY_H
#define ADJOINT_LIB_SYNTHESIS_SHADOWMEMORY_H

#include "Allocations.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>

namespace llvm {
class Argument;
class BasicBlock;
class CallBase;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace adjoint {

/// Is \p Ptr its own shadow? Null, undef, the addresses of functions and
/// pointers into constant globals without floating-point data (vtables)
/// point to no memory that holds derivatives.
bool isOwnShadow(const llvm::Value *Ptr);

class ShadowMemory {
public:
  /// \p IsActive tells which values carry derivatives; \p ArgShadows maps
  /// each duplicated argument to its shadow argument.
  /// \p OnCall sees every call that is not an allocation, in the order of
  /// the walk, once the shadows of its arguments exist; it may replace the
  /// call (giving the shadow of its result with setShadow).
  ShadowMemory(
      std::function<bool(const llvm::Value *)> IsActive,
      const llvm::DenseMap<const llvm::Argument *, llvm::Value *> &ArgShadows,
      std::function<void(llvm::CallBase &)> OnCall)
      : IsActive(std::move(IsActive)),
        Shadows(ArgShadows.begin(), ArgShadows.end()),
        OnCall(std::move(OnCall)) {}

  /// Emits the shadow of every active pointer of the forward blocks \p F,
  /// and mirrors stores of active pointers into shadow memory.
  void build(llvm::Function &F);

  /// The shadow of the active pointer \p Ptr.
  llvm::Value *shadowOf(const llvm::Value *Ptr) const;

  /// Records that \p Shadow is the shadow of \p Ptr.
  void setShadow(const llvm::Value *Ptr, llvm::Value *Shadow) {
    Shadows[Ptr] = Shadow;
  }

  /// The size of the block \p Realloc resizes, a value of the forward pass.
  llvm::Value *oldBlockSize(const llvm::CallBase &Realloc);

private:
  void shadowInstruction(llvm::Instruction &I);

  std::function<bool(const llvm::Value *)> IsActive;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Shadows;
  std::function<void(llvm::CallBase &)> OnCall;
  BlockSizes Sizes;
};

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_SHADOWMEMORY_H
