//===- MemoryTransfer.h - Derivatives through memcpy ------------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// memcpy (and realloc) move bytes without saying what they are. The type analysis says
// which of them are floats (their adjoints move back: dsrc += ddst, ddst =
// 0), pointers (their shadows are copied alongside, in the forward pass) or
// integers (nothing to do).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_MEMORYTRANSFER_H
#define ADJOINT_LIB_SYNTHESIS_MEMORYTRANSFER_H

#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace llvm {
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace adjoint {

class FunctionTypeInfo;

/// What a memcpy copies, by kind of byte.
struct TransferLayout {
  struct FloatRun {
    int64_t Offset;
    llvm::Type *ElementType;
    int64_t Count; ///< Elements; -1: the whole run-time length.
  };
  struct PointerRun {
    int64_t Offset;
    int64_t Size; ///< Bytes; -1: the whole run-time length.
  };
  llvm::SmallVector<FloatRun, 2> Floats;
  llvm::SmallVector<PointerRun, 2> Pointers;
};

/// The layout of the bytes a copy of \p Length bytes (a constant, a
/// run-time value, or null: known only at run time) to \p Dst moves, per the type analysis of \p Dst's
/// memory; or std::nullopt with \p WhyNot saying what cannot be told or
/// handled. With \p UntouchedIfUnknown, bytes no access gives a type are
/// taken to carry nothing: right for a block the function allocated itself,
/// where such bytes were never written or read.
std::optional<TransferLayout> transferLayout(const llvm::Value *Dst,
                                             const llvm::Value *Length,
                                             const FunctionTypeInfo &Types,
                                             std::string &WhyNot,
                                             bool UntouchedIfUnknown = false);

/// Forward: copies the shadows of the pointer bytes that a copy of
/// \p Length bytes moves (with memmove when the ranges \p MayOverlap).
void emitShadowPointerCopy(const TransferLayout &L, llvm::Value *Length,
                           llvm::Value *DstShadow, llvm::Value *SrcShadow,
                           llvm::IRBuilderBase &B, bool MayOverlap = false);

/// Reverse: hands the adjoints of the copied float bytes back to the source
/// (when it has a shadow, \p SrcShadow non-null) and zeroes them at the
/// destination. May add blocks (a loop); \p B ends at the block after them.
void emitReverseCopy(const TransferLayout &L, llvm::Value *Length,
                     llvm::Value *DstShadow, llvm::Value *SrcShadow,
                     llvm::IRBuilderBase &B);

/// Reverse of a copy whose ranges may overlap (memmove): as if through a
/// temporary block, the destination's adjoints are saved, consumed at the
/// destination, then added to the source.
void emitReverseMove(const TransferLayout &L, llvm::Value *Length,
                     llvm::Value *DstShadow, llvm::Value *SrcShadow,
                     llvm::IRBuilderBase &B);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_MEMORYTRANSFER_H
