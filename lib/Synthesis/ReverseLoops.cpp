//===- ReverseLoops.cpp - Running loops backwards ---------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ReverseLoops.h"

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"

using namespace llvm;

namespace adjoint {

ReverseLoops::ReverseLoops(const LoopInfo &LI,
                           const DenseMap<const Loop *, Value *> &KnownExits,
                           IRBuilderBase &Entry)
    : LI(LI), KnownExits(KnownExits) {
  Type *I64 = Entry.getInt64Ty();
  for (Loop *L : LI.getLoopsInPreorder()) {
    Counters &C = Loops[L];
    C.Iteration = Entry.CreateAlloca(I64, nullptr, "reverse.iteration");
    BasicBlock *Header = L->getHeader();
    C.IterationStart = &*Header->getFirstInsertionPt();
    if (L->isOutermost())
      continue;
    C.Flat = Entry.CreateAlloca(I64, nullptr, "flat.count");
    C.ReverseFlat = Entry.CreateAlloca(I64, nullptr, "reverse.flat");
    Entry.CreateStore(Entry.getInt64(0), C.Flat);
    IRBuilder<> B(C.IterationStart);
    C.ForwardFlat = B.CreateLoad(I64, C.Flat, "flat.index");
    Instruction *Next =
        B.CreateStore(B.CreateAdd(C.ForwardFlat, B.getInt64(1)), C.Flat);
    C.IterationStart = Next->getNextNode();
  }
}

Loop *ReverseLoops::loopWithHeader(const BasicBlock *BB) const {
  Loop *L = LI.getLoopFor(BB);
  return L && L->getHeader() == BB ? L : nullptr;
}

void ReverseLoops::emitReverseStart(IRBuilderBase &B) {
  for (auto &[L, C] : Loops)
    if (C.Flat)
      B.CreateStore(B.CreateSub(B.CreateLoad(B.getInt64Ty(), C.Flat),
                                B.getInt64(1)),
                    C.ReverseFlat);
}

Value *ReverseLoops::emitLeaveIteration(const Loop &L, IRBuilderBase &B) {
  const Counters &C = Loops.lookup(&L);
  Value *First = B.CreateICmpEQ(reverseIteration(L, B), B.getInt64(0),
                                "first.iteration");
  if (C.ReverseFlat)
    B.CreateStore(B.CreateSub(reverseIndex(L, B), B.getInt64(1)),
                  C.ReverseFlat);
  return First;
}

void ReverseLoops::emitStepBack(const Loop &L, IRBuilderBase &B) {
  const Counters &C = Loops.lookup(&L);
  B.CreateStore(B.CreateSub(reverseIteration(L, B), B.getInt64(1)),
                C.Iteration);
}

void ReverseLoops::emitEnterLoops(BasicBlock &Exiting, BasicBlock &Exit,
                                  IRBuilderBase &B) {
  for (const Loop *L = LI.getLoopFor(&Exiting); L && !L->contains(&Exit);
       L = L->getParentLoop()) {
    if (Value *Known = KnownExits.lookup(L)) {
      B.CreateStore(Known, Loops.lookup(L).Iteration);
      continue;
    }
    // The iteration of L in which the forward pass reached Exit.
    PHINode *&At = ExitIterations[{&Exit, L}];
    if (!At) {
      IRBuilder<> PhiB(&Exit, Exit.begin());
      At = PhiB.CreatePHI(B.getInt64Ty(), pred_size(&Exit), "exit.iteration");
      for (BasicBlock *Pred : predecessors(&Exit))
        At->addIncoming(L->contains(Pred)
                            ? static_cast<Value *>(getCanonicalIV(*L))
                            : PhiB.getInt64(0),
                        Pred);
    }
    B.CreateStore(At, Loops.lookup(L).Iteration);
  }
}

Value *ReverseLoops::reverseIteration(const Loop &L, IRBuilderBase &B) {
  return B.CreateLoad(B.getInt64Ty(), Loops.lookup(&L).Iteration,
                      "iteration");
}

Value *ReverseLoops::reverseIndex(const Loop &L, IRBuilderBase &B) {
  const Counters &C = Loops.lookup(&L);
  if (!C.ReverseFlat)
    return reverseIteration(L, B);
  return B.CreateLoad(B.getInt64Ty(), C.ReverseFlat, "flat.index");
}

Instruction *ReverseLoops::forwardIndex(const Loop &L) const {
  const Counters &C = Loops.lookup(&L);
  return C.ForwardFlat ? C.ForwardFlat : getCanonicalIV(L);
}

Instruction *ReverseLoops::iterationStart(const Loop &L) const {
  return Loops.lookup(&L).IterationStart;
}

} // namespace adjoint
