//===- LoopCanonicalForm.cpp - Loops in the shape reverse mode needs ------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reverse of a loop runs its iterations backwards, so it must know which
// iteration it is in. Every loop therefore gets:
//   - loop-simplify form: a preheader (the reverse leaves the loop there),
//     one latch (the reverse of the back edge), dedicated exit blocks (where
//     the reverse enters the loop);
//   - LCSSA form: values of a loop are used outside it only through phis of
//     its exit blocks, so the reverse never needs "the last iteration's"
//     value of anything but those phis;
//   - a canonical induction variable: an i64 phi, first in the header, that
//     counts iterations from 0. It indexes the caches;
//   - every other affine induction variable (i = a + b*k, p = &x[a + b*k])
//     rewritten as a function of the canonical one, so that the reverse
//     recomputes it from its own iteration count instead of caching it.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace adjoint {

namespace {

/// Inserts the canonical induction variable of \p L, first in its header.
PHINode *insertCanonicalIV(Loop &L) {
  BasicBlock *Header = L.getHeader();
  IRBuilder<> B(Header, Header->begin());
  PHINode *IV = B.CreatePHI(B.getInt64Ty(), 2, "adjoint.iv");
  IRBuilder<> LatchB(L.getLoopLatch()->getTerminator());
  Value *Next = LatchB.CreateAdd(IV, LatchB.getInt64(1), "adjoint.iv.next",
                                 /*HasNUW=*/true, /*HasNSW=*/true);
  IV->addIncoming(B.getInt64(0), L.getLoopPreheader());
  IV->addIncoming(Next, L.getLoopLatch());
  return IV;
}

/// An induction variable start + step * k of a loop, both loop-invariant.
struct AffineIV {
  PHINode *Phi;
  const SCEV *Start, *Step;
  Instruction *ExpandAt; ///< The preheader's terminator.
};

SmallVector<AffineIV, 4> findAffineIVs(Loop &L, ScalarEvolution &SE,
                                       const SCEVExpander &Expander) {
  SmallVector<AffineIV, 4> Result;
  Instruction *Preheader = L.getLoopPreheader()->getTerminator();
  for (PHINode &Phi : L.getHeader()->phis()) {
    if (!SE.isSCEVable(Phi.getType()))
      continue;
    const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
    if (!AR || AR->getLoop() != &L || !AR->isAffine())
      continue;
    const SCEV *Start = AR->getStart(), *Step = AR->getStepRecurrence(SE);
    if (!Expander.isSafeToExpandAt(Start, Preheader) ||
        !Expander.isSafeToExpandAt(Step, Preheader))
      continue;
    Result.push_back({&Phi, Start, Step, Preheader});
  }
  return Result;
}

/// Replaces the phi of \p IV by start + step * iv, computed in the header.
/// Arithmetic wraps exactly as the phi's own updates did.
void rewriteAffineIV(const AffineIV &IV, PHINode *CanonicalIV,
                     SCEVExpander &Expander) {
  BasicBlock *Header = IV.Phi->getParent();
  Type *Ty = IV.Phi->getType();
  // A pointer advances by a byte offset of the index type.
  Type *StepTy = Ty->isPointerTy() ? IV.Step->getType() : Ty;
  Value *Start = Expander.expandCodeFor(IV.Start, Ty, IV.ExpandAt);
  Value *Step = Expander.expandCodeFor(IV.Step, StepTy, IV.ExpandAt);

  IRBuilder<> B(Header, Header->getFirstInsertionPt());
  Value *Offset = B.CreateZExtOrTrunc(CanonicalIV, StepTy);
  if (!match(Step, m_One()))
    Offset = B.CreateMul(Offset, Step);
  Value *New = Offset;
  if (Ty->isPointerTy())
    New = B.CreatePtrAdd(Start, Offset);
  else if (!match(Start, m_Zero()))
    New = B.CreateAdd(Start, Offset);
  if (New != CanonicalIV)
    New->takeName(IV.Phi);
  IV.Phi->replaceAllUsesWith(New);
  RecursivelyDeleteDeadPHINode(IV.Phi);
}

void canonicalizeLoop(Loop &L, ScalarEvolution &SE, SCEVExpander &Expander) {
  // Affine induction variables are found before the canonical one exists,
  // so that SCEV describes the loop as the optimizer left it.
  SmallVector<AffineIV, 4> IVs = findAffineIVs(L, SE, Expander);
  PHINode *CanonicalIV = insertCanonicalIV(L);
  for (const AffineIV &IV : IVs)
    rewriteAffineIV(IV, CanonicalIV, Expander);
  for (Loop *Sub : L)
    canonicalizeLoop(*Sub, SE, Expander);
}

} // namespace

PHINode *getCanonicalIV(const Loop &L) {
  BasicBlock *Header = L.getHeader();
  auto *IV = dyn_cast<PHINode>(&Header->front());
  if (!IV || !IV->getType()->isIntegerTy(64) || IV->getNumIncomingValues() != 2)
    return nullptr;
  BasicBlock *Latch = L.getLoopLatch(), *Preheader = L.getLoopPreheader();
  if (!Latch || !Preheader)
    return nullptr;
  auto *Start = dyn_cast<ConstantInt>(IV->getIncomingValueForBlock(Preheader));
  auto *Next = dyn_cast<BinaryOperator>(IV->getIncomingValueForBlock(Latch));
  if (!Start || !Start->isZero() || !Next ||
      Next->getOpcode() != Instruction::Add || Next->getOperand(0) != IV)
    return nullptr;
  auto *One = dyn_cast<ConstantInt>(Next->getOperand(1));
  return One && One->isOne() ? IV : nullptr;
}

bool canonicalizeLoops(Function &F, FunctionAnalysisManager &FAM) {
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return true;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  for (Loop *L : LI)
    simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  // Loops the CFG gives no preheader or latch (indirectbr) stay as they are;
  // the differentiability check reports them.
  bool AllSimple = all_of(LI.getLoopsInPreorder(), [](const Loop *L) {
    return L->isLoopSimplifyForm();
  });
  if (!AllSimple)
    return false;
  for (Loop *L : LI)
    formLCSSARecursively(*L, DT, &LI, &SE);

  SCEVExpander Expander(SE, F.getDataLayout(), "adjoint.iv");
  for (Loop *L : LI)
    canonicalizeLoop(*L, SE, Expander);
  Expander.clear();
  FAM.invalidate(F, PreservedAnalyses::none());
  return true;
}

} // namespace adjoint
