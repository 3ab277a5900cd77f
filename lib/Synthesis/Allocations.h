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

namespace llvm {
class CallBase;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace adjoint {

/// Is \p Call malloc, calloc, aligned_alloc, operator new or new[]?
bool isAllocation(const llvm::CallBase &Call);

/// Is \p Call free, operator delete or delete[] (any sized variant)?
bool isDeallocation(const llvm::CallBase &Call);

/// Allocates, after \p Alloc, a zeroed block of the same size from the same
/// allocator: the shadow of Alloc's block.
llvm::Value *allocateShadow(llvm::CallBase &Alloc, llvm::IRBuilderBase &B);

/// The call that frees \p Alloc's block in the function, if any.
llvm::CallBase *findDeallocation(const llvm::CallBase &Alloc);

/// Frees \p Shadow the way \p Dealloc frees the primal block.
void freeShadow(llvm::CallBase &Dealloc, llvm::Value *Shadow,
                llvm::IRBuilderBase &B);

} // namespace adjoint

#endif // ADJOINT_LIB_SYNTHESIS_ALLOCATIONS_H
