//===- Allocations.h - Heap allocation functions ----------------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The allocation and deallocation functions whose memory gets a shadow: the
// shadow of a heap block is a zeroed block from the same allocator, freed
// with the deallocator the primal block is freed with.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_SYNTHESIS_ALLOCATIONS_H
#define ADJOINT_LIB_SYNTHESIS_ALLOCATIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

namespace llvm {
class CallBase;
class CallInst;
class Constant;
class IRBuilderBase;

class Value;
} // namespace llvm

namespace adjoint {

/// Is \p Call malloc, calloc, aligned_alloc, operator new or new[] (also
/// the aligned and std::nothrow forms)?
bool isAllocation(const llvm::CallBase &Call);

/// Is \p Call free, operator delete or delete[] (any sized, aligned or
/// std::nothrow form)?
bool isDeallocation(const llvm::CallBase &Call);

/// Is \p Call realloc?
bool isReallocation(const llvm::CallBase &Call);

/// Does the function know the size of the heap block \p Ptr points to? It
/// does for null, for blocks it allocated or resized itself, and for phis
/// and selects of those (a buffer that a loop grows by realloc). Blocks from
/// elsewhere have sizes it cannot know.
bool hasKnownBlockSize(const llvm::Value *Ptr);

/// The sizes of heap blocks as values of the forward pass (see
/// hasKnownBlockSize): an allocation's size after it, 0 for null, and phis
/// and selects of sizes mirroring those of the pointers.
class BlockSizes {
public:
  /// The size in bytes (i64) of the block \p Ptr points to.
  llvm::Value *sizeOf(llvm::Value *Ptr);

private:
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Sizes;
};

/// How many bytes \p Realloc copies from the old block (the smaller of
/// both sizes) as a constant for the type analysis, or null when that is
/// known only at run time.
llvm::Constant *constantReallocCopySize(const llvm::CallBase &Realloc);

/// The shadow of \p Realloc's new block, after it: a zeroed block of the
/// new size holding the first bytes of \p OldShadow (shadow pointers; its
/// float bytes are still zero in the forward pass). The old shadow block is
/// kept: the reverse pass hands the new block's adjoints back to it.
llvm::Value *reallocateShadow(llvm::CallBase &Realloc, llvm::Value *OldShadow,
                              llvm::Value *OldSize, llvm::IRBuilderBase &B);

/// Allocates, after \p Alloc, a zeroed block of the same size from the same
/// allocator: the shadow of Alloc's block.
llvm::Value *allocateShadow(llvm::CallBase &Alloc, llvm::IRBuilderBase &B);

/// The call that frees \p Alloc's block in the function, if any (a realloc
/// of the block frees it too), following the pointer through phis and
/// selects, and through memory: a block whose address the function stores
/// into a local or a heap block it frees is freed by a deallocation of a
/// pointer loaded from there.
llvm::CallBase *findDeallocation(const llvm::CallBase &Alloc);

/// Emits `malloc(Size)` (Size an i64) at \p B's insertion point.
llvm::CallInst *emitMalloc(llvm::Value *Size, llvm::IRBuilderBase &B,
                           const llvm::Twine &Name = "");

/// Emits `free(Block)` at \p B's insertion point.
void emitFree(llvm::Value *Block, llvm::IRBuilderBase &B);

/// Frees \p Shadow, the shadow of the block \p Alloc made, the way
/// \p Dealloc frees the primal block (with \p Alloc's size and alignment
/// for the sized and aligned deletes).
void freeShadow(const llvm::CallBase &Alloc, llvm::CallBase &Dealloc,
                llvm::Value *Shadow, llvm::IRBuilderBase &B);

/// Frees \p Shadow as \p Dealloc frees the primal block, with \p Dealloc's
/// own size and alignment operands: where the forward pass frees it, next
/// to \p Dealloc.
void freeShadow(llvm::CallBase &Dealloc, llvm::Value *Shadow,
                llvm::IRBuilderBase &B);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_ALLOCATIONS_H
