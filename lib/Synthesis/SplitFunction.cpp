//===- SplitFunction.cpp - Cut a gradient into its two halves ---------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "SplitFunction.h"
#include "Allocations.h"

#include "adjoint/Synthesis/CallDerivatives.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adjoint {

namespace {

using BlockSet = SmallPtrSet<BasicBlock *, 32>;

/// The blocks of the forward pass: reachable from the entry without going
/// through the turn.
BlockSet blocksBefore(Function &F, BasicBlock *Turn) {
  BlockSet Before;
  SmallVector<BasicBlock *, 32> Worklist = {&F.getEntryBlock()};
  while (!Worklist.empty()) {
    BasicBlock *BB = Worklist.pop_back_val();
    if (BB == Turn || !Before.insert(BB).second)
      continue;
    append_range(Worklist, successors(BB));
  }
  return Before;
}

/// May the memory of \p A be used after the turn: through a pointer the
/// reverse uses, or because its address escapes into memory or into a
/// call (an augmented callee keeps what it needs in its tape)?
bool isUsedAfterTurn(AllocaInst &A, const BlockSet &Before) {
  SmallVector<Value *, 8> Worklist = {&A};
  SmallPtrSet<Value *, 8> Seen = {&A};
  while (!Worklist.empty()) {
    Value *V = Worklist.pop_back_val();
    for (User *U : V->users()) {
      auto *I = cast<Instruction>(U);
      if (!Before.contains(I->getParent()))
        return true;
      if (auto *SI = dyn_cast<StoreInst>(I); SI && SI->getValueOperand() == V)
        return true;
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return true;
      if ((isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
           isa<SelectInst>(I)) &&
          Seen.insert(I).second)
        Worklist.push_back(I);
    }
  }
  return false;
}

/// Replaces the stack slot \p A with a heap block of the same size and
/// alignment, which the reverse frees.
Instruction *moveToHeap(AllocaInst &A) {
  Module &M = *A.getModule();
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> B(&A);
  Type *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  Value *Size =
      B.CreateMul(B.CreateZExtOrTrunc(A.getArraySize(), I64),
                  B.getInt64(DL.getTypeAllocSize(A.getAllocatedType())));
  CallInst *Block;
  // malloc's blocks are aligned for every scalar type; vectors may need
  // more.
  if (A.getAlign() <= Align(16)) {
    Block = emitMalloc(Size, B);
  } else {
    uint64_t Alignment = A.getAlign().value();
    Size = B.CreateAnd(B.CreateAdd(Size, B.getInt64(Alignment - 1)),
                       B.getInt64(~(Alignment - 1)));
    Block = B.CreateCall(M.getOrInsertFunction("aligned_alloc", Ptr, I64, I64),
                         {B.getInt64(Alignment), Size});
  }
  Block->takeName(&A);
  A.replaceAllUsesWith(Block);
  A.eraseFromParent();
  // Lifetime markers describe stack slots only.
  for (User *U : make_early_inc_range(Block->users()))
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      II->eraseFromParent();
  return Block;
}

/// What the reverse uses of the forward pass, in a stable order: the tape's
/// fields.
SetVector<Instruction *> crossingValues(Function &F, const BlockSet &Before,
                                        BasicBlock *Turn) {
  SetVector<Instruction *> Crossing;
  auto Collect = [&](Instruction &User) {
    for (Value *Op : User.operands())
      if (auto *I = dyn_cast<Instruction>(Op);
          I && (Before.contains(I->getParent()) || I->getParent() == Turn))
        Crossing.insert(I);
  };
  for (BasicBlock &BB : F)
    if (!Before.contains(&BB) && &BB != Turn)
      for (Instruction &I : BB)
        Collect(I);
  Collect(*Turn->getTerminator());
  return Crossing;
}

/// Can \p V be computed again at the start of the reverse, from the
/// arguments alone (which both halves receive)? Only what may run anywhere
/// (no loads: memory may have changed in between; no division by zero).
bool isRecomputable(Value *V, DenseMap<Value *, bool> &Memo) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument>(V) || isa<Constant>(V);
  auto [It, Inserted] = Memo.try_emplace(I, false);
  if (!Inserted)
    return It->second;
  bool Result = (isa<BinaryOperator>(I) || isa<CastInst>(I) ||
                 isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
                 isa<SelectInst>(I)) &&
                isSafeToSpeculativelyExecute(I) &&
                all_of(I->operands(),
                       [&](Value *Op) { return isRecomputable(Op, Memo); });
  Memo[I] = Result;
  return Result;
}

/// Clones \p I, and what it is computed from, before \p B's insertion
/// point.
Value *recompute(Instruction *I, DenseMap<Value *, Value *> &Done,
                 IRBuilderBase &B) {
  if (Value *Copy = Done.lookup(I))
    return Copy;
  Instruction *Copy = I->clone();
  for (Use &Op : Copy->operands())
    if (auto *OpI = dyn_cast<Instruction>(Op.get()))
      Op.set(recompute(OpI, Done, B));
  B.Insert(Copy, I->getName());
  Done[I] = Copy;
  return Copy;
}

void buildAugmented(Function &Combined, const TurnPoint &Turn,
                    ArrayRef<Instruction *> Crossing, StructType *TapeTy,
                    Function &Aug) {
  ValueToValueMapTy VMap;
  for (Argument &A : Combined.args()) {
    if (A.getArgNo() >= Aug.arg_size()) {
      VMap[&A] = PoisonValue::get(A.getType()); // The return's adjoint.
      continue;
    }
    Aug.getArg(A.getArgNo())->setName(A.getName());
    VMap[&A] = Aug.getArg(A.getArgNo());
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&Aug, &Combined, VMap,
                    CloneFunctionChangeType::GlobalChanges, Returns);
  auto *End = cast<BasicBlock>(VMap[Turn.Block]);
  End->getTerminator()->eraseFromParent();
  IRBuilder<> B(End);
  B.SetCurrentDebugLocation(DebugLoc());
  Value *Tape = ConstantPointerNull::get(B.getPtrTy());
  if (!Crossing.empty()) {
    uint64_t Size = Aug.getDataLayout().getTypeAllocSize(TapeTy);
    Tape = emitMalloc(B.getInt64(Size), B, "tape");
    for (auto [Index, I] : enumerate(Crossing))
      B.CreateStore(VMap[I], B.CreateStructGEP(TapeTy, Tape, Index));
  }
  auto *RetTy = cast<StructType>(Aug.getReturnType());
  Value *Result = B.CreateInsertValue(PoisonValue::get(RetTy), Tape, 0);
  if (Turn.Return)
    Result = B.CreateInsertValue(Result, VMap[Turn.Return], 1);
  if (Turn.ShadowReturn)
    Result = B.CreateInsertValue(Result, VMap[Turn.ShadowReturn], 2);
  B.CreateRet(Result);
  removeUnreachableBlocks(Aug);
}

void buildReverse(Function &Combined, const TurnPoint &Turn,
                  const BlockSet &Before, ArrayRef<Instruction *> Crossing,
                  ArrayRef<Instruction *> Recomputable,
                  ArrayRef<Instruction *> HeapBlocks, StructType *TapeTy,
                  Function &Rev) {
  for (Argument &A : Combined.args()) {
    Argument *New = Rev.getArg(A.getArgNo());
    New->takeName(&A);
    A.replaceAllUsesWith(New);
  }
  Rev.splice(Rev.end(), &Combined);
  Rev.setSubprogram(Combined.getSubprogram());
  Combined.setSubprogram(nullptr);

  Argument *Tape = Rev.getArg(Rev.arg_size() - 1);
  Tape->setName("tape");
  BasicBlock *Start =
      BasicBlock::Create(Rev.getContext(), "reverse.start", &Rev, &Rev.front());
  IRBuilder<> B(Start);
  DenseMap<Instruction *, Value *> Loaded;
  for (auto [Index, I] : enumerate(Crossing))
    Loaded[I] = B.CreateLoad(I->getType(),
                             B.CreateStructGEP(TapeTy, Tape, Index),
                             I->getName() + ".tape");
  if (!Crossing.empty())
    emitFree(Tape, B);
  DenseMap<Value *, Value *> Recomputed;
  for (Instruction *I : Recomputable)
    Loaded[I] = recompute(I, Recomputed, B);
  // The reverse starts where the turn would have gone.
  Instruction *Branch = Turn.Block->getTerminator();
  Branch->removeFromParent();
  Branch->insertInto(Start, Start->end());
  IRBuilder<>(Turn.Block).CreateUnreachable();
  for (BasicBlock *Succ : successors(Start))
    Succ->replacePhiUsesWith(Turn.Block, Start);
  for (auto [I, New] : Loaded)
    I->replaceUsesWithIf(New, [&](Use &U) {
      BasicBlock *BB = cast<Instruction>(U.getUser())->getParent();
      return !Before.contains(BB) && BB != Turn.Block;
    });
  for (BasicBlock &BB : Rev)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> RB(Ret);
      for (Instruction *Block : HeapBlocks)
        emitFree(Loaded[Block], RB);
    }
  removeUnreachableBlocks(Rev);
}

} // namespace

void splitAtTurn(Function &Combined, const TurnPoint &Turn,
                 const CallDerivative &Into) {
  BlockSet Before = blocksBefore(Combined, Turn.Block);
  SmallVector<Instruction *, 4> HeapBlocks;
  for (BasicBlock *BB : Before)
    for (Instruction &I : make_early_inc_range(*BB))
      if (auto *A = dyn_cast<AllocaInst>(&I); A && isUsedAfterTurn(*A, Before))
        HeapBlocks.push_back(moveToHeap(*A));
  SetVector<Instruction *> Crossing;
  SmallVector<Instruction *, 8> Recomputable;
  DenseMap<Value *, bool> Memo;
  for (Instruction *I : crossingValues(Combined, Before, Turn.Block)) {
    if (isRecomputable(I, Memo))
      Recomputable.push_back(I);
    else
      Crossing.insert(I);
  }
  Crossing.insert(HeapBlocks.begin(), HeapBlocks.end());
  SmallVector<Type *, 8> Fields;
  for (Instruction *I : Crossing)
    Fields.push_back(I->getType());
  StructType *TapeTy = StructType::get(Combined.getContext(), Fields);

  Into.Augmented->copyAttributesFrom(&Combined);
  Into.Reverse->copyAttributesFrom(&Combined);
  buildAugmented(Combined, Turn, Crossing.getArrayRef(), TapeTy,
                 *Into.Augmented);
  buildReverse(Combined, Turn, Before, Crossing.getArrayRef(), Recomputable,
               HeapBlocks, TapeTy, *Into.Reverse);
  Combined.eraseFromParent();
}

void emitAbortingBody(Function &F) {
  if (!F.isDeclaration())
    return;
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", &F));
  B.CreateIntrinsic(Intrinsic::trap, {}, {});
  B.CreateUnreachable();
}

} // namespace adjoint
