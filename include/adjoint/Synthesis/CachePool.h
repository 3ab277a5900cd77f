//===- adjoint/Synthesis/CachePool.h - Memory for caches ---------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A gradient that caches values of a loop allocates its caches on entry and
// frees them on return. Called again and again (an optimizer's iterations),
// it would get fresh memory every time: caches are large, so malloc takes
// them from mmap or from the top of the heap and gives them back to the
// kernel when they are freed (glibc trims the heap top once the free memory
// there exceeds twice the largest block freed so far, which several caches
// together do). Every call then pays a page fault per 4 KiB of cache, which
// for a cheap loop body costs several times the arithmetic (the RK4
// benchmark ran 10x slower than with glibc's trimming disabled).
//
// So caches go through a small pool per thread instead: freeing a cache
// keeps the block (the pool holds the PoolSlots largest ones) and the next
// gradient takes the smallest kept block that is large enough. What the
// pool holds is at most the caches of the largest gradient the thread ran;
// it is freed when the thread exits.
//
// While gradients are generated, the pool's functions are declarations with
// malloc's and free's attributes, which every stage knows as an allocation
// and a deallocation (a gradient of a gradient sees them like malloc and
// free); defineCachePool gives them internal bodies once AD is done.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SYNTHESIS_CACHEPOOL_H
#define ADJOINT_SYNTHESIS_CACHEPOOL_H

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Module;
} // namespace llvm

namespace adjoint {

inline constexpr llvm::StringLiteral CacheTakeName = "adjoint.cache.take";
inline constexpr llvm::StringLiteral CacheGiveName = "adjoint.cache.give";
inline constexpr llvm::StringLiteral CacheBlockSizeName = "adjoint.cache.size";

/// Emits the allocation of a cache block of \p Size bytes (an i64).
llvm::CallInst *emitCacheAllocation(llvm::Value *Size, llvm::IRBuilderBase &B,
                                    const llvm::Twine &Name = "");

/// Emits the release of a block from emitCacheAllocation (or grown from one
/// with realloc) back to the pool; null is allowed.
void emitCacheRelease(llvm::Value *Block, llvm::IRBuilderBase &B);

/// Emits the usable size in bytes (an i64) of a block from
/// emitCacheAllocation, at least what was asked for.
llvm::Value *emitCacheBlockSize(llvm::Value *Block, llvm::IRBuilderBase &B);

/// Defines the pool's functions if the module uses them. Runs after the
/// last gradient of the module is generated.
void defineCachePool(llvm::Module &M);

} // namespace adjoint

#endif // ADJOINT_SYNTHESIS_CACHEPOOL_H
