//===- adjoint/Synthesis/SlotPromotion.h - Slots to registers ---*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Synthesis keeps adjoints (and primal values that reach uses their
// definition does not dominate) in stack slots allocated in the entry block,
// and promotes them to SSA registers (PromoteMemToReg) when the gradient is
// complete. This prepares the slots so that promotion stays cheap in large
// functions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SYNTHESIS_SLOTPROMOTION_H
#define ADJOINT_SYNTHESIS_SLOTPROMOTION_H

namespace llvm {
class Function;
} // namespace llvm

namespace adjoint {

/// Moves the store that initializes a promotable slot of \p F's entry block
/// (a store to it before any other access there) to the top of the nearest
/// block that dominates all the slot's other accesses and lies on no cycle,
/// unless that is the entry block. Returns how many stores moved.
///
/// This does not change what the function computes: the block runs at most
/// once, before any other access, so the slot still holds the initial
/// value when it is first read. It matters for compile time. An adjoint
/// slot is zeroed in the entry block but used in a few reverse blocks; left
/// in the entry, the store makes PromoteMemToReg walk the whole dominator
/// tree for that slot when it places phis, so that promotion takes time
/// proportional to slots x blocks, quadratic in the size of the function.
/// Moved, a slot used in one block takes PromoteMemToReg's single-block
/// path, and the others only walk the tree below their accesses.
unsigned sinkSlotInitializations(llvm::Function &F);

} // namespace adjoint

#endif // ADJOINT_SYNTHESIS_SLOTPROMOTION_H
