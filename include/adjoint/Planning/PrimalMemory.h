//===- adjoint/Planning/PrimalMemory.h - Memory the reverse reads -*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reverse pass runs after the whole forward pass. A value the forward
// pass loaded can be loaded again there, instead of cached, when its memory
// still holds it: nothing the forward pass may execute after the load
// writes it. Blocks the function frees before returning would make most
// such loads impossible; a gradient frees those at its end instead, when it
// can do so on exactly the paths where the function frees them.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PLANNING_PRIMALMEMORY_H
#define ADJOINT_PLANNING_PRIMALMEMORY_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AAResults;
class CallBase;
class DominatorTree;
class Function;
class LoadInst;
class LoopInfo;
class PostDominatorTree;
class TargetLibraryInfo;
} // namespace llvm

namespace adjoint {

using DeferredFrees = llvm::SmallPtrSet<const llvm::CallBase *, 4>;

/// The frees in \p F that a gradient can move to just before it returns:
/// each frees, with a library deallocation function, a block \p F
/// allocates with a library allocation function outside every loop, on
/// every path that returns and on no other (the allocation dominates the
/// returns and the free post-dominates it, outside every loop too).
/// The block then outlives the forward pass by the length of the reverse,
/// once per call.
DeferredFrees findDeferrableFrees(llvm::Function &F,
                                  const llvm::DominatorTree &DT,
                                  const llvm::PostDominatorTree &PDT,
                                  const llvm::LoopInfo &LI,
                                  const llvm::TargetLibraryInfo &TLI);

/// The loads of \p F that the reverse pass can repeat: no writer that may
/// execute after the load (reachable from it in the CFG, around loops
/// included) may write its memory, by \p AA. \p Deferred frees do not
/// count (they run after the reverse); calls of the math library write
/// only its state (errno, signgam) and count only against loads that may
/// read a global.
llvm::SmallPtrSet<const llvm::LoadInst *, 16>
findReloadableLoads(llvm::Function &F, llvm::AAResults &AA,
                    const llvm::DominatorTree &DT, const llvm::LoopInfo &LI,
                    const llvm::TargetLibraryInfo &TLI,
                    const DeferredFrees &Deferred);

} // namespace adjoint

#endif // ADJOINT_PLANNING_PRIMALMEMORY_H
