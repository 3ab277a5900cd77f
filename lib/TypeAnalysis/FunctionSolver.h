//===- FunctionSolver.h - Type trees of one function ------------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The intraprocedural half of the type analysis: a worklist fixed point over
// one function. Each instruction has one transfer function that updates its
// result from its operands and its operands from its result; a value whose
// tree grows puts its definition and its users back on the worklist. Calls
// to defined functions go through a callback that the interprocedural
// driver (TypeAnalyzer) answers with a summary.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_TYPEANALYSIS_FUNCTIONSOLVER_H
#define ADJOINT_LIB_TYPEANALYSIS_FUNCTIONSOLVER_H

#include "adjoint/TypeAnalysis/TypeAnalysis.h"
#include "adjoint/TypeAnalysis/TypeTree.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace llvm {
class CallBase;
class Constant;
class DataLayout;
class Function;
class GetElementPtrInst;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace adjoint {

/// Answers a call to a defined function: what the callee adds to the trees
/// of its arguments and result, given the caller's trees of them (null: no
/// summary, e.g. a cap was reached).
using SummarizeFn = llvm::function_ref<const CallSummary *(
    const llvm::Function &Callee, const CallSummary &Pattern)>;

class FunctionSolver {
public:
  FunctionSolver(const llvm::Function &F, SummarizeFn Summarize);

  /// Joins \p Inputs into the argument and return trees and iterates to a
  /// fixed point. Can be called again with more inputs (recursion); the
  /// state is kept. Returns false if the step cap stopped it or a tree
  /// reached TypeTree::MaxEntries.
  bool solve(const CallSummary &Inputs);

  /// The trees of the arguments and of the returned values.
  CallSummary outputs() const;

  /// Moves the per-value trees out: arguments, instructions, globals, and
  /// the constant expressions and aggregates that instructions use.
  llvm::DenseMap<const llvm::Value *, TypeTree> takeTrees();

  /// What \p V's tree is: state for arguments, instructions and globals,
  /// computed for other constants.
  TypeTree get(const llvm::Value *V);

private:
  void update(const llvm::Value *V, const TypeTree &T);
  void enqueue(const llvm::Instruction *I);
  void enqueueUsers(const llvm::Value *V);
  void visit(const llvm::Instruction &I);

  // Transfer functions, by kind of instruction.
  void visitMemoryAccess(const llvm::Value *Ptr, const llvm::Value *Val,
                         llvm::Type *ValTy);
  void visitGEP(const llvm::GetElementPtrInst &GEP);
  void visitCast(const llvm::Instruction &I);
  void visitIntegerArithmetic(const llvm::Instruction &I);
  void visitAddSub(const llvm::Instruction &I);
  void visitShift(const llvm::Instruction &I);
  void visitAggregate(const llvm::Instruction &I);
  void visitVector(const llvm::Instruction &I);
  void visitCall(const llvm::CallBase &CB);
  void visitTransfer(const llvm::CallBase &CB, const llvm::Value *Dst,
                     const llvm::Value *Src, const llvm::Value *Len);
  bool visitKnownFunction(const llvm::CallBase &CB);
  void applyTBAA(const llvm::Instruction &I, const llvm::Value *Ptr,
                 const llvm::Value *Val, llvm::Type *ValTy);

  /// \p Part (of type \p PartTy) is the bytes [Off, Off + Size) of
  /// \p Whole's first level: the memory a pointer points to, or the bytes of
  /// an aggregate. Joins each into the other: the rule of loads, stores,
  /// extractvalue and insertvalue.
  void linkBytes(const llvm::Value *Whole, int64_t Off, int64_t Size,
                 const llvm::Value *Part, llvm::Type *PartTy);

  TypeTree constantTree(const llvm::Constant *C);
  TypeTree integerTree(llvm::Type *T) const;
  bool isIntegerValue(const llvm::Value *V);

  /// The tree of \p T (of IR type \p From) described by bytes, and back.
  TypeTree toBytes(const TypeTree &T, llvm::Type *From) const;
  TypeTree fromBytes(const TypeTree &Bytes, llvm::Type *To) const;

  /// Finds the GEPs whose result flows back into their pointer operand
  /// (pointer induction variables, also through self-recursive calls).
  void findInductions();

  const llvm::Function &F;
  const llvm::DataLayout &DL;
  SummarizeFn Summarize;

  llvm::DenseMap<const llvm::Value *, TypeTree> State;
  TypeTree RetTree;
  llvm::SmallVector<const llvm::Instruction *, 4> Returns;
  /// Instructions of F that use a global, directly or through constant
  /// expressions: what to revisit when the global's tree grows.
  llvm::DenseMap<const llvm::Value *,
                 llvm::SmallVector<const llvm::Instruction *, 4>>
      GlobalUsers;
  llvm::SmallPtrSet<const llvm::Instruction *, 4> InductionGEPs;
  /// Each GEP's offset, computed once: Const + k * Stride. Elements > 0
  /// bounds k to the elements of the array the one run-time index selects
  /// in (an inbounds GEP stays in it), with Const then the offset of
  /// element 0: the offsets can be listed exactly instead of as a pattern.
  struct GEPOffset {
    int64_t Const, Stride, Elements;
  };
  llvm::DenseMap<const llvm::Instruction *, GEPOffset> GEPOffsets;

  /// The worklist runs in sweeps over the instructions in reverse post-
  /// order: an instruction that a change puts back is visited later in the
  /// same sweep if it comes after the one being visited, else in the next
  /// sweep. A value that many instructions feed (a pointer to a big struct)
  /// then settles within a sweep instead of sending its users round once
  /// per new fact.
  llvm::SmallVector<const llvm::Instruction *, 64> Order;
  llvm::DenseMap<const llvm::Instruction *, unsigned> Number;
  llvm::BitVector ThisSweep, NextSweep;
  unsigned Cursor = 0;
  /// Did some tree reach TypeTree::MaxEntries (and drop entries)?
  bool Saturated = false;
};

/// The constant part and the period of the integer \p V, which is known to
/// be Const + Stride * k for some integer k (Stride 0: exactly Const).
/// Unknown integers are {0, 1}.
std::pair<int64_t, int64_t> affineForm(const llvm::Value *V);

} // namespace adjoint

#endif // ADJOINT_LIB_TYPEANALYSIS_FUNCTIONSOLVER_H
