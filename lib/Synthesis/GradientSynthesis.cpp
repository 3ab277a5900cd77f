//===- GradientSynthesis.cpp - Reverse mode ----------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Shape of a gradient function:
//
//   forward blocks   the primal body; each `ret` becomes a branch to the
//                    reverse of its block, after seeding the return's adjoint
//   reverse blocks   one per forward block, visiting its active instructions
//                    backwards; then on to the reverse of the predecessor the
//                    forward pass came from (recorded by a phi in the forward
//                    block when there are several), passing phi adjoints
//                    along that edge; the reverse of the entry block returns
//                    the gradients
//
// A loop's reverse runs its iterations backwards (ReverseLoops.h): the
// reverse of the header steps back to the latch, or leaves for the
// preheader after the first iteration; the reverse of an exit edge enters
// the loop at the iteration the forward pass left it in.
//
// Adjoints live in stack slots, one per active value, so that contributions
// from several uses and several paths simply accumulate. Reverse code is
// written with primal values as operands; then the values of loops are
// recomputed or read from caches (PrimalValues.h), and where a use of a
// value outside loops is not dominated by its definition, the value is
// routed through a stack slot. PromoteMemToReg finally turns all slots back
// into SSA registers.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/GradientSynthesis.h"
#include "Differentiability.h"
#include "ShadowMemory.h"
#include "MemoryTransfer.h"
#include "Allocations.h"
#include "PrimalValues.h"
#include "ReverseLoops.h"
#include "SplitFunction.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Planning/CachePlan.h"
#include "adjoint/Rules/DerivativeRules.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"
#include "adjoint/Synthesis/SlotPromotion.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "adjoint-synthesis"

using namespace llvm;

namespace adjoint {

FunctionType *gradientFunctionType(FunctionType *FTy,
                                   ArrayRef<ArgActivity> Activities) {
  SmallVector<Type *, 8> Params;
  SmallVector<Type *, 4> Gradients;
  for (auto [Param, Act] : zip(FTy->params(), Activities)) {
    Params.push_back(Param);
    if (hasShadow(Act))
      Params.push_back(Param);
    if (Act == ArgActivity::Out)
      Gradients.push_back(Param);
  }
  LLVMContext &Ctx = FTy->getContext();
  Type *Ret = Type::getVoidTy(Ctx);
  if (Gradients.size() == 1)
    Ret = Gradients.front();
  else if (Gradients.size() > 1)
    Ret = StructType::get(Ctx, Gradients);
  return FunctionType::get(Ret, Params, /*isVarArg=*/false);
}

namespace {

/// What each memcpy and realloc of the function copies, by kind of byte.
using CopyLayouts = DenseMap<const Instruction *, TransferLayout>;

class ReverseModeBuilder {
public:
  ReverseModeBuilder(const GradientRequest &R, Function &Grad,
                     ArrayRef<Argument *> OutArgs,
                     SmallPtrSet<const Argument *, 8> ActiveArgs,
                     const DenseMap<const Argument *, Value *> &ArgShadows,
                     Value *ReturnAdjoint, const CopyLayouts &Layouts)
      : R(R), Grad(Grad), Activity(R.Activity),
        EntryBuilder(Grad.getContext()), ActiveArgs(std::move(ActiveArgs)),
        OutArgs(OutArgs), ReturnAdjoint(ReturnAdjoint), Layouts(Layouts),
        Shadows([this](const Value *V) { return isActive(V); }, ArgShadows,
                [this](CallBase &Call) { augmentCall(Call); }) {}

  enum class Outcome { Built, CallFailed, Internal };
  /// Builds the gradient; CallFailed when a kept call has no derivative
  /// (reported), Internal when the primal values the reverse needs could
  /// not be provided.
  Outcome build();

  /// In a split build, where the forward pass ends and the reverse begins.
  const TurnPoint &turn() const { return Turn; }

private:
  // The reverse pass.
  void seedReturn(ReturnInst &Ret, BasicBlock &Reverse);
  void reverseBlock(BasicBlock &Forward);
  void reverseInstruction(Instruction &I, IRBuilder<> &B);
  void reverseLoad(LoadInst &LI, Value *Adjoint, IRBuilder<> &B);
  void reverseStore(StoreInst &SI, IRBuilder<> &B);
  void reverseMaskedLoad(IntrinsicInst &Load, Value *Adjoint, IRBuilder<> &B);
  void reverseMaskedStore(IntrinsicInst &Store, IRBuilder<> &B);
  void reverseMemSet(MemSetInst &MS, IRBuilder<> &B);
  void mirrorPointerCopies();
  void reverseAllocation(CallBase &Alloc, IRBuilder<> &B);
  void reverseReallocCopy(CallBase &Realloc, Value *Shadow, IRBuilder<> &B);
  void reverseBlockExit(BasicBlock &Forward, IRBuilder<> &B);
  void reverseLoopHeaderExit(BasicBlock &Header, const Loop &L,
                             ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints,
                             IRBuilder<> &B);
  void emitReverseEdge(BasicBlock &Forward, BasicBlock &Pred,
                       ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints,
                       IRBuilder<> &B);
  BasicBlock *reverseEdgeTarget(
      BasicBlock &Forward, BasicBlock &Pred,
      ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints, bool Always,
      const DebugLoc &DL);
  bool isLoopExit(BasicBlock &Exiting, BasicBlock &Exit) const;
  void emitGradientReturn(IRBuilder<> &B);
  void freeDeferredBlocks();

  // Calls kept as calls (CallDerivatives.h).
  void augmentCall(CallBase &Call);
  CallPattern callPattern(const CallBase &Call) const;
  void reverseKeptCall(CallInst &Augmented, IRBuilder<> &B);
  void createTurn();

  // Adjoint slots.
  AllocaInst *adjointSlot(Value *V);
  void addToAdjoint(Value *V, Value *Contribution, IRBuilder<> &B);
  Value *takeAdjoint(Value *V, IRBuilder<> &B);

  // Loops.
  void findTripCounts();

  // Finishing.
  bool providePrimalValues();
  void repairDominance();
  void promoteSlots();

  TransferLayout layoutOf(const Instruction &Copy) const {
    assert(Layouts.count(&Copy) && "checkDifferentiable admits only copies "
                                   "with a layout");
    return Layouts.lookup(&Copy);
  }
  Value *shadowIfActive(const Value *Ptr) const {
    return isActive(Ptr) ? Shadows.shadowOf(Ptr) : nullptr;
  }

  bool isActive(const Value *V) const {
    // The results of augmented calls stand for the calls' results.
    if (const Value *Original = StandsFor.lookup(V))
      V = Original;
    // Arguments of Grad stand for the arguments of the primal clone.
    if (const auto *A = dyn_cast<Argument>(V))
      return A->getParent() == &Grad && ActiveArgs.contains(A);
    return Activity.isActive(V);
  }

  const GradientRequest &R;
  Function &Grad;
  const ActivityInfo &Activity;
  IRBuilder<> EntryBuilder; ///< Creates slots at the top of the entry block.
  SmallPtrSet<const Argument *, 8> ActiveArgs; ///< Grad's active arguments.
  SmallVector<Argument *, 4> OutArgs; ///< Grad's enzyme_out arguments.
  /// The adjoint of the return value: an argument of a split pair's
  /// reverse, null for a gradient (whose seed is 1).
  Value *ReturnAdjoint;
  const CopyLayouts &Layouts;
  SmallVector<BasicBlock *, 16> ForwardBlocks;
  DenseMap<BasicBlock *, BasicBlock *> ReverseOf;
  /// The forward block each reverse block belongs to the reverse of.
  DenseMap<BasicBlock *, BasicBlock *> Mirrors;
  DominatorTree DT;
  LoopInfo LI;
  std::optional<ReverseLoops> Loops;
  /// How many iterations loops run over the call (an upper bound), computed
  /// in the preheaders of their outermost loops.
  DenseMap<const Loop *, Value *> TripCounts;
  /// The iteration in which the forward pass leaves a loop, computed in its
  /// exit block, where SCEV knows it.
  DenseMap<const Loop *, Value *> ExitIterations;
  MapVector<Value *, AllocaInst *> Slots;

  /// A call replaced by a call to its augmented function.
  struct KeptCall {
    CallPattern Pattern;
    CallDerivative Derivative;
    FunctionType *Type; ///< The callee's.
    /// The primal arguments; for an indirect call, the function pointer
    /// first.
    SmallVector<Value *, 8> Args;
    Value *Tape;
    Value *Result; ///< Stands for the call's result; null if void.
  };
  DenseMap<const CallInst *, KeptCall> KeptCalls; ///< By augmented call.
  DenseMap<const Value *, const Value *> StandsFor;
  /// Calls replaced by augmented calls, erased once the reverse is built.
  SmallSetVector<CallBase *, 4> Replaced;
  bool CallFailed = false;
  ReturnInst *GradientReturn = nullptr; ///< Of a gradient, not a split pair.
  TurnPoint Turn;
  PHINode *TurnWhich = nullptr;

  ShadowMemory Shadows;
};

AllocaInst *ReverseModeBuilder::adjointSlot(Value *V) {
  auto [It, Inserted] = Slots.try_emplace(V, nullptr);
  if (!Inserted)
    return It->second;
  AllocaInst *Slot = EntryBuilder.CreateAlloca(V->getType(), nullptr,
                                               V->getName() + ".adjoint");
  EntryBuilder.CreateStore(adjointZero(V->getType()), Slot);
  It->second = Slot;
  return Slot;
}

void ReverseModeBuilder::addToAdjoint(Value *V, Value *Contribution,
                                      IRBuilder<> &B) {
  AllocaInst *Slot = adjointSlot(V);
  if (Contribution->getType() != V->getType())
    Contribution = B.CreateFPCast(Contribution, V->getType());
  Value *Old = B.CreateLoad(V->getType(), Slot);
  B.CreateStore(addAdjoints(B, Old, Contribution), Slot);
}

Value *ReverseModeBuilder::takeAdjoint(Value *V, IRBuilder<> &B) {
  AllocaInst *Slot = adjointSlot(V);
  Value *Adjoint = B.CreateLoad(V->getType(), Slot, V->getName() + ".adj");
  // Zeroing after use keeps slots correct when a block is reversed again
  // (loops, later) and costs nothing once promoted.
  B.CreateStore(adjointZero(V->getType()), Slot);
  return Adjoint;
}

ReverseModeBuilder::Outcome ReverseModeBuilder::build() {
  for (BasicBlock &BB : Grad)
    ForwardBlocks.push_back(&BB);
  DT.recalculate(Grad);
  LI.analyze(DT);
  findTripCounts();
  Shadows.build(Grad);
  if (CallFailed)
    return Outcome::CallFailed;
  mirrorPointerCopies();
  EntryBuilder.SetInsertPoint(&Grad.getEntryBlock(),
                              Grad.getEntryBlock().begin());
  Loops.emplace(LI, ExitIterations, EntryBuilder);
  for (BasicBlock *BB : ForwardBlocks) {
    ReverseOf[BB] = BasicBlock::Create(Grad.getContext(),
                                       "reverse." + BB->getName(), &Grad);
    Mirrors[ReverseOf[BB]] = BB;
  }

  if (R.Split)
    createTurn();
  for (BasicBlock *BB : ForwardBlocks)
    if (auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator()))
      seedReturn(*Ret, *ReverseOf[BB]);
  if (Turn.Block)
    cast<SwitchInst>(Turn.Block->getTerminator())
        ->setDefaultDest(ReverseOf[TurnWhich->getIncomingBlock(0)]);
  // Reverse the blocks last to first, so that slots of values defined late
  // are created (in the entry block) after those defined early. Blocks that
  // reversing a block adds (edges, copy loops) belong to its reverse.
  for (BasicBlock *BB : reverse(ForwardBlocks)) {
    BasicBlock *Last = &Grad.back();
    reverseBlock(*BB);
    for (BasicBlock *New = Last->getNextNode(); New; New = New->getNextNode())
      Mirrors[New] = BB;
  }

  for (CallBase *Call : Replaced)
    Call->eraseFromParent();
  freeDeferredBlocks();
  removeUnreachableBlocks(Grad);
  if (!providePrimalValues())
    return Outcome::Internal;
  repairDominance();
  promoteSlots();
  return Outcome::Built;
}

/// Loops whose iterations over the whole call are known (bounded) when
/// their outermost loop is entered get their caches in one allocation.
/// Expanded first, before the forward blocks change.
void ReverseModeBuilder::findTripCounts() {
  if (LI.empty())
    return;
  Module &M = *Grad.getParent();
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII, &Grad);
  AssumptionCache AC(Grad);
  ScalarEvolution SE(Grad, TLI, AC, DT, LI);
  SCEVExpander Expander(SE, M.getDataLayout(), "trip.count");
  Type *I64 = Type::getInt64Ty(Grad.getContext());
  // A loop left through one exiting block leaves it in iteration
  // backedge-taken-count; when SCEV computes that from values outside the
  // loop, the reverse computes it again instead of caching the iteration.
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Exit = L->getExitBlock();
    const SCEV *Backedges = SE.getBackedgeTakenCount(L);
    if (!Exit || !L->getExitingBlock() ||
        isa<SCEVCouldNotCompute>(Backedges))
      continue;
    Instruction *At = &*Exit->getFirstInsertionPt();
    if (Expander.isSafeToExpandAt(Backedges, At))
      ExitIterations[L] = Expander.expandCodeFor(
          SE.getNoopOrZeroExtend(Backedges, I64), I64, At);
  }
  // How many iterations a loop runs over the whole call, at most, computed
  // at the entry of its outermost loop: the product of the trip counts of
  // the loop and the loops around it (a rectangular nest). An upper bound
  // is enough, and exists for loops that exit early.
  DenseMap<const Loop *, const SCEV *> Totals;
  for (Loop *L : LI.getLoopsInPreorder()) {
    Loop *Outermost = L->getOutermostLoop();
    Instruction *At = Outermost->getLoopPreheader()->getTerminator();
    const SCEV *Backedges = SE.getSymbolicMaxBackedgeTakenCount(L);
    const SCEV *Outer =
        L == Outermost ? SE.getOne(I64) : Totals.lookup(L->getParentLoop());
    if (!Outer || isa<SCEVCouldNotCompute>(Backedges) ||
        !SE.isLoopInvariant(Backedges, Outermost) ||
        !Expander.isSafeToExpandAt(Backedges, At))
      continue;
    Totals[L] = SE.getMulExpr(
        Outer, SE.getAddExpr(SE.getNoopOrZeroExtend(Backedges, I64),
                             SE.getOne(I64)));
    TripCounts[L] = Expander.expandCodeFor(Totals[L], I64, At);
  }
  Expander.clear();
}

/// A split build's forward pass ends in one block, the turn, whose phis say
/// which return the forward pass took and what it returned; the reverse
/// starts from there (SplitFunction.h cuts the function at the turn).
void ReverseModeBuilder::createTurn() {
  LLVMContext &Ctx = Grad.getContext();
  Turn.Block = BasicBlock::Create(Ctx, "turn", &Grad);
  IRBuilder<> B(Turn.Block);
  TurnWhich = B.CreatePHI(B.getInt32Ty(), 2, "which.return");
  Type *RetTy = R.Primal.getReturnType();
  if (!RetTy->isVoidTy())
    Turn.Return = B.CreatePHI(RetTy, 2, "return.value");
  if (returnsShadow(R.Primal.getFunctionType(), *R.Split))
    Turn.ShadowReturn = B.CreatePHI(RetTy, 2, "return.shadow");
  // Destinations are added as the returns are seen.
  B.CreateSwitch(TurnWhich, Turn.Block);
}

void ReverseModeBuilder::seedReturn(ReturnInst &Ret, BasicBlock &Reverse) {
  Value *RV = Ret.getReturnValue();
  // The seed starts the reverse of the returning block. (Seeded before the
  // return goes, which may be where the entry block's slots are inserted.)
  bool Seeded = R.Split ? takesReturnAdjoint(R.Primal.getFunctionType(), *R.Split)
                        : RV && RV->getType()->isFPOrFPVectorTy();
  if (Seeded && isActive(RV)) {
    IRBuilder<> RB(&Reverse);
    addToAdjoint(RV,
                 ReturnAdjoint ? ReturnAdjoint
                               : ConstantFP::get(RV->getType(), 1.0),
                 RB);
  }

  IRBuilder<> B(&Ret);
  Loops->emitReverseStart(B);
  if (Turn.Block) {
    BasicBlock *From = Ret.getParent();
    auto *Switch = cast<SwitchInst>(Turn.Block->getTerminator());
    auto *Which = B.getInt32(TurnWhich->getNumIncomingValues());
    TurnWhich->addIncoming(Which, From);
    if (Which->getZExtValue() != 0)
      Switch->addCase(Which, &Reverse);
    if (Turn.Return)
      Turn.Return->addIncoming(RV, From);
    if (Turn.ShadowReturn)
      Turn.ShadowReturn->addIncoming(
          isActive(RV) ? Shadows.shadowOf(RV)
                       : Constant::getNullValue(RV->getType()),
          From);
    B.CreateBr(Turn.Block);
  } else {
    B.CreateBr(&Reverse);
  }
  Ret.eraseFromParent();
}

void ReverseModeBuilder::reverseBlock(BasicBlock &Forward) {
  IRBuilder<> B(ReverseOf[&Forward]);
  for (Instruction &I : reverse(Forward)) {
    if (auto *Call = dyn_cast<CallInst>(&I); Call && KeptCalls.count(Call)) {
      reverseKeptCall(*Call, B);
      continue;
    }
    // Its adjoint is taken by the reverse of its augmented call.
    if (auto *Call = dyn_cast<CallBase>(&I);
        StandsFor.count(&I) || (Call && Replaced.contains(Call)))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (isActive(SI->getPointerOperand()))
        reverseStore(*SI, B);
      continue;
    }
    if (auto *MS = dyn_cast<MemSetInst>(&I)) {
      if (isActive(MS->getDest()))
        reverseMemSet(*MS, B);
      continue;
    }
    if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      if (!isActive(MT->getRawDest()))
        continue;
      B.SetCurrentDebugLocation(MT->getDebugLoc());
      (isa<MemMoveInst>(MT) ? emitReverseMove : emitReverseCopy)(
          layoutOf(*MT), MT->getLength(), Shadows.shadowOf(MT->getRawDest()),
          shadowIfActive(MT->getRawSource()), B);
      continue;
    }
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && isActive(Call) &&
        (isAllocation(*Call) || isReallocation(*Call))) {
      reverseAllocation(*Call, B);
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::masked_store) {
      if (isActive(II->getArgOperand(1)))
        reverseMaskedStore(*II, B);
      continue;
    }
    if (isa<PHINode>(I) || I.isTerminator() || !isActive(&I) ||
        I.getType()->isPointerTy())
      continue;
    reverseInstruction(I, B);
  }
  reverseBlockExit(Forward, B);
}

void ReverseModeBuilder::reverseInstruction(Instruction &I, IRBuilder<> &B) {
  B.SetCurrentDebugLocation(I.getDebugLoc());
  IRBuilderBase::FastMathFlagGuard Guard(B);
  if (isa<FPMathOperator>(I))
    B.setFastMathFlags(I.getFastMathFlags());
  Value *Adjoint = takeAdjoint(&I, B);

  if (auto *LI = dyn_cast<LoadInst>(&I))
    return reverseLoad(*LI, Adjoint, B);
  if (auto *II = dyn_cast<IntrinsicInst>(&I);
      II && II->getIntrinsicID() == Intrinsic::masked_load)
    return reverseMaskedLoad(*II, Adjoint, B);
  if (isDataMovement(I)) {
    emitTransposedMovement(I, Adjoint, B, [&](unsigned Idx, Value *Share) {
      if (isActive(I.getOperand(Idx)))
        addToAdjoint(I.getOperand(Idx), Share, B);
    });
    return;
  }

  const DerivativeRule *Rule = findRule(I);
  assert(Rule && "checkDifferentiable admits only instructions with rules");
  emitOperandAdjoints(
      *Rule, I, Adjoint, B, [&](const Value *V) { return isActive(V); },
      [&](unsigned Idx, Value *Share) {
        addToAdjoint(I.getOperand(Idx), Share, B);
      });
}

CallPattern ReverseModeBuilder::callPattern(const CallBase &Call) const {
  CallPattern P;
  for (const Value *Arg : Call.args()) {
    ArgActivity A = ArgActivity::Const;
    if (isActive(Arg))
      A = Arg->getType()->isPointerTy() ? ArgActivity::Dup : ArgActivity::Out;
    P.Args.push_back(A);
  }
  P.ActiveReturn = isActive(&Call);
  return P;
}

/// The forward pass calls the augmented function in place of \p Call: it
/// does the callee's work and returns the tape its reverse needs.
void ReverseModeBuilder::augmentCall(CallBase &Call) {
  if (!isDifferentiatedAsCall(Call, R.Calls) ||
      (!isActive(&Call) && none_of(Call.args(), [&](const Use &Arg) {
         return isActive(Arg.get());
       })))
    return;
  KeptCall K{callPattern(Call), {}, Call.getFunctionType(), {}, nullptr,
             nullptr};
  Function *Callee = Call.getCalledFunction();
  K.Derivative = Callee ? R.Calls->get(*Callee, K.Pattern, Call)
                        : R.Calls->getIndirect(K.Type, K.Pattern, Call);
  if (!K.Derivative) {
    CallFailed = true;
    return;
  }
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args;
  // Through a pointer: the dispatching pair takes the pointer first.
  if (!Callee)
    Args.push_back(Call.getCalledOperand());
  for (auto [Arg, Act] : zip(Call.args(), K.Pattern.Args)) {
    K.Args.push_back(Arg);
    Args.push_back(Arg);
    if (hasShadow(Act))
      Args.push_back(Shadows.shadowOf(Arg));
  }
  CallInst *Aug = B.CreateCall(K.Derivative.Augmented, Args);
  Aug->setDebugLoc(Call.getDebugLoc());
  K.Tape = B.CreateExtractValue(Aug, 0, "tape");
  if (!Call.getType()->isVoidTy()) {
    K.Result = B.CreateExtractValue(Aug, 1, Call.getName());
    StandsFor[K.Result] = &Call;
    if (returnsShadow(K.Type, K.Pattern))
      Shadows.setShadow(K.Result,
                        B.CreateExtractValue(Aug, 2, Call.getName() +
                                                         ".shadow"));
    Call.replaceAllUsesWith(K.Result);
  }
  KeptCalls[Aug] = std::move(K);
  Replaced.insert(&Call);
}

/// The reverse of a kept call: the callee's reverse takes the adjoint of
/// its result and the tape, and returns the adjoints of its active
/// by-value arguments.
void ReverseModeBuilder::reverseKeptCall(CallInst &Augmented, IRBuilder<> &B) {
  const KeptCall &K = KeptCalls.find(&Augmented)->second;
  B.SetCurrentDebugLocation(Augmented.getDebugLoc());
  SmallVector<Value *, 8> Args(Augmented.args());
  if (takesReturnAdjoint(K.Type, K.Pattern))
    Args.push_back(takeAdjoint(K.Result, B));
  Args.push_back(K.Tape);
  CallInst *Rev = B.CreateCall(K.Derivative.Reverse, Args);
  unsigned NumOut = count(K.Pattern.Args, ArgActivity::Out), Next = 0;
  for (auto [Arg, Act] : zip(K.Args, K.Pattern.Args)) {
    if (Act != ArgActivity::Out)
      continue;
    addToAdjoint(Arg, NumOut == 1 ? Rev : B.CreateExtractValue(Rev, Next), B);
    ++Next;
  }
}

/// The reverse of `V = *P` adds V's adjoint to the shadow of *P.
void ReverseModeBuilder::reverseLoad(LoadInst &LI, Value *Adjoint,
                                     IRBuilder<> &B) {
  Value *Shadow = Shadows.shadowOf(LI.getPointerOperand());
  Value *Old = B.CreateAlignedLoad(LI.getType(), Shadow, LI.getAlign());
  B.CreateAlignedStore(addAdjoints(B, Old, Adjoint), Shadow, LI.getAlign());
}

/// The reverse of `V = masked.load(P, Mask, Passthru)`: the lanes read
/// from memory add to its shadow, the others to Passthru's adjoint.
void ReverseModeBuilder::reverseMaskedLoad(IntrinsicInst &Load,
                                           Value *Adjoint, IRBuilder<> &B) {
  Value *Ptr = Load.getArgOperand(0), *Mask = Load.getArgOperand(2),
        *Passthru = Load.getArgOperand(3);
  Align Alignment = cast<ConstantInt>(Load.getArgOperand(1))->getAlignValue();
  Type *Ty = Load.getType();
  Value *Zero = Constant::getNullValue(Ty);
  if (isActive(Ptr)) {
    Value *Shadow = Shadows.shadowOf(Ptr);
    Value *Old = B.CreateMaskedLoad(Ty, Shadow, Alignment, Mask, Zero);
    B.CreateMaskedStore(addAdjoints(B, Old, Adjoint), Shadow, Alignment,
                        Mask);
  }
  if (isActive(Passthru))
    addToAdjoint(Passthru, B.CreateSelect(Mask, Zero, Adjoint), B);
}

/// The reverse of `masked.store(V, P, Mask)`: the lanes written hand their
/// shadows to V and are consumed, as for a store.
void ReverseModeBuilder::reverseMaskedStore(IntrinsicInst &Store,
                                            IRBuilder<> &B) {
  Value *Val = Store.getArgOperand(0), *Ptr = Store.getArgOperand(1),
        *Mask = Store.getArgOperand(3);
  Align Alignment = cast<ConstantInt>(Store.getArgOperand(2))->getAlignValue();
  Type *Ty = Val->getType();
  if (Ty->isPtrOrPtrVectorTy())
    return;
  B.SetCurrentDebugLocation(Store.getDebugLoc());
  Value *Shadow = Shadows.shadowOf(Ptr);
  Value *Zero = Constant::getNullValue(Ty);
  if (isActive(Val))
    addToAdjoint(Val, B.CreateMaskedLoad(Ty, Shadow, Alignment, Mask, Zero),
                 B);
  B.CreateMaskedStore(Zero, Shadow, Alignment, Mask);
}

/// The reverse of `*P = V` hands the adjoint held in the shadow of *P to V,
/// then zeroes it: the value *P had before the store did not reach the
/// output through *P (shared/api-semantics.md, "Consumption").
void ReverseModeBuilder::reverseStore(StoreInst &SI, IRBuilder<> &B) {
  Value *Val = SI.getValueOperand();
  Type *Ty = Val->getType();
  // A stored pointer's shadow slot holds its shadow (see ShadowMemory).
  if (Ty->isPtrOrPtrVectorTy())
    return;
  B.SetCurrentDebugLocation(SI.getDebugLoc());
  Value *Shadow = Shadows.shadowOf(SI.getPointerOperand());
  if (isActive(Val))
    addToAdjoint(Val, B.CreateAlignedLoad(Ty, Shadow, SI.getAlign()), B);
  // Integer stores too: the optimizer writes zeros (memset) as `store i64 0`
  // even over doubles.
  B.CreateAlignedStore(Constant::getNullValue(Ty), Shadow, SI.getAlign());
}

/// Pointers copied by memcpy or memmove between memory with shadows: their shadows are
/// copied too, so that loads of them find their shadows.
void ReverseModeBuilder::mirrorPointerCopies() {
  for (BasicBlock *BB : ForwardBlocks)
    for (Instruction &I : *BB)
      if (auto *MT = dyn_cast<MemTransferInst>(&I);
          MT && isActive(MT->getRawDest()) && isActive(MT->getRawSource())) {
        IRBuilder<> B(MT->getNextNode());
        emitShadowPointerCopy(layoutOf(*MT), MT->getLength(),
                              Shadows.shadowOf(MT->getRawDest()),
                              Shadows.shadowOf(MT->getRawSource()), B,
                              /*MayOverlap=*/isa<MemMoveInst>(MT));
      }
}

/// The reverse is done with a shadow block once it gets back to the call
/// that allocated it: free it as the function frees (or resizes) the primal
/// block. realloc first hands the adjoints of the bytes it copied back to
/// the old block's shadow.
void ReverseModeBuilder::reverseAllocation(CallBase &Alloc, IRBuilder<> &B) {
  B.SetCurrentDebugLocation(Alloc.getDebugLoc());
  Value *Shadow = Shadows.shadowOf(&Alloc);
  if (isReallocation(Alloc))
    reverseReallocCopy(Alloc, Shadow, B);
  if (CallBase *Dealloc = findDeallocation(Alloc))
    freeShadow(Alloc, *Dealloc, Shadow, B);
}

void ReverseModeBuilder::reverseReallocCopy(CallBase &Realloc, Value *Shadow,
                                            IRBuilder<> &B) {
  Value *Old = Realloc.getArgOperand(0);
  if (!isa<ConstantPointerNull>(Old) && isActive(Old)) {
    Value *NewSize =
        B.CreateZExtOrTrunc(Realloc.getArgOperand(1), B.getInt64Ty());
    Value *Copied = B.CreateBinaryIntrinsic(
        Intrinsic::umin, Shadows.oldBlockSize(Realloc), NewSize);
    emitReverseCopy(layoutOf(Realloc), Copied, Shadow, Shadows.shadowOf(Old),
                    B);
  }
}

/// memset overwrites its bytes like a store of constants: their shadow is
/// consumed.
void ReverseModeBuilder::reverseMemSet(MemSetInst &MS, IRBuilder<> &B) {
  B.SetCurrentDebugLocation(MS.getDebugLoc());
  B.CreateMemSet(Shadows.shadowOf(MS.getDest()), B.getInt8(0),
                 MS.getLength(), MS.getDestAlign());
}

/// Leaves the reverse of \p Forward for the reverse of the predecessor that
/// the forward pass came from, handing each active phi's adjoint to the
/// value that phi took on that edge.
void ReverseModeBuilder::reverseBlockExit(BasicBlock &Forward,
                                          IRBuilder<> &B) {
  B.SetCurrentDebugLocation(Forward.getTerminator()->getDebugLoc());
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : Forward.phis())
    if (isActive(&Phi))
      PhiAdjoints.push_back({&Phi, takeAdjoint(&Phi, B)});

  if (const Loop *L = Loops->loopWithHeader(&Forward))
    return reverseLoopHeaderExit(Forward, *L, PhiAdjoints, B);
  SmallSetVector<BasicBlock *, 4> Preds(pred_begin(&Forward),
                                        pred_end(&Forward));
  if (Preds.empty())
    return emitGradientReturn(B);
  if (Preds.size() == 1) {
    emitReverseEdge(Forward, *Preds.front(), PhiAdjoints, B);
    B.CreateBr(ReverseOf[Preds.front()]);
    return;
  }

  // Several ways in: the forward block records which one it took.
  IRBuilder<> FB(&Forward, Forward.begin());
  Type *CaseTy = Preds.size() <= 256 ? FB.getInt8Ty() : FB.getInt32Ty();
  PHINode *CameFrom = FB.CreatePHI(CaseTy, pred_size(&Forward),
                                   Forward.getName() + ".came_from");
  for (BasicBlock *P : predecessors(&Forward))
    CameFrom->addIncoming(
        ConstantInt::get(CaseTy, Preds.getArrayRef().end() -
                                     find(Preds.getArrayRef(), P) - 1),
        P);
  // Case I leads to the reverse of predecessor number size-1-I; case 0 (the
  // last predecessor) is the default.
  const DebugLoc &DL = B.getCurrentDebugLocation();
  SwitchInst *Switch = B.CreateSwitch(
      CameFrom,
      reverseEdgeTarget(Forward, *Preds.back(), PhiAdjoints, false, DL),
      Preds.size() - 1);
  for (unsigned I = 1, E = Preds.size(); I != E; ++I)
    Switch->addCase(
        ConstantInt::get(cast<IntegerType>(CaseTy), I),
        reverseEdgeTarget(Forward, *Preds[E - 1 - I], PhiAdjoints, false, DL));
}

/// The reverse of a loop header ends an iteration of the reverse: back to
/// the latch for the previous iteration, or out to the preheader after the
/// first.
void ReverseModeBuilder::reverseLoopHeaderExit(
    BasicBlock &Header, const Loop &L,
    ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints, IRBuilder<> &B) {
  Value *First = Loops->emitLeaveIteration(L, B);
  const DebugLoc &DL = B.getCurrentDebugLocation();
  BasicBlock *ToPreheader = reverseEdgeTarget(Header, *L.getLoopPreheader(),
                                              PhiAdjoints, false, DL);
  BasicBlock *ToLatch =
      reverseEdgeTarget(Header, *L.getLoopLatch(), PhiAdjoints, true, DL);
  IRBuilder<> StepB(ToLatch->getTerminator());
  Loops->emitStepBack(L, StepB);
  B.CreateCondBr(First, ToPreheader, ToLatch);
}

bool ReverseModeBuilder::isLoopExit(BasicBlock &Exiting,
                                    BasicBlock &Exit) const {
  const Loop *L = LI.getLoopFor(&Exiting);
  return L && !L->contains(&Exit);
}

/// What the reverse does on the way from the reverse of \p Forward to the
/// reverse of its predecessor \p Pred: phi adjoints go to the values the
/// phis took on that edge, and leaving a loop forward means entering it in
/// reverse.
void ReverseModeBuilder::emitReverseEdge(
    BasicBlock &Forward, BasicBlock &Pred,
    ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints, IRBuilder<> &B) {
  for (auto &[Phi, Adjoint] : PhiAdjoints) {
    Value *Incoming = Phi->getIncomingValueForBlock(&Pred);
    if (isActive(Incoming))
      addToAdjoint(Incoming, Adjoint, B);
  }
  if (isLoopExit(Pred, Forward))
    Loops->emitEnterLoops(Pred, Forward, B);
}

/// The block to branch to for the reverse of edge \p Pred -> \p Forward:
/// the reverse of \p Pred itself, or a block for the edge's own work (always
/// one if \p Always).
BasicBlock *ReverseModeBuilder::reverseEdgeTarget(
    BasicBlock &Forward, BasicBlock &Pred,
    ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints, bool Always,
    const DebugLoc &DL) {
  bool NeedsEdge = Always || isLoopExit(Pred, Forward) ||
                   any_of(PhiAdjoints, [&](const auto &PA) {
                     return isActive(PA.first->getIncomingValueForBlock(&Pred));
                   });
  if (!NeedsEdge)
    return ReverseOf[&Pred];
  BasicBlock *Edge = BasicBlock::Create(
      Grad.getContext(),
      "reverse." + Forward.getName() + ".from." + Pred.getName(), &Grad);
  IRBuilder<> EdgeB(Edge);
  EdgeB.SetCurrentDebugLocation(DL);
  emitReverseEdge(Forward, Pred, PhiAdjoints, EdgeB);
  EdgeB.CreateBr(ReverseOf[&Pred]);
  return Edge;
}

void ReverseModeBuilder::emitGradientReturn(IRBuilder<> &B) {
  SmallVector<Value *, 4> Gradients;
  for (Argument *A : OutArgs) {
    Value *Zero = Constant::getNullValue(A->getType());
    // Adding +0.0 turns the -0.0 of an adjoint that received nothing into
    // the +0.0 users expect, and leaves every other value unchanged.
    Gradients.push_back(isActive(A) ? addAdjoints(B, takeAdjoint(A, B), Zero)
                                    : Zero);
  }
  Type *RetTy = Grad.getReturnType();
  if (Gradients.empty()) {
    GradientReturn = B.CreateRetVoid();
    return;
  }
  if (Gradients.size() == 1) {
    GradientReturn = B.CreateRet(Gradients.front());
    return;
  }
  Value *Agg = PoisonValue::get(RetTy);
  for (unsigned I = 0; I != Gradients.size(); ++I)
    Agg = B.CreateInsertValue(Agg, Gradients[I], I);
  GradientReturn = B.CreateRet(Agg);
}

/// The blocks whose frees planning deferred (findDeferrableFrees) stay
/// readable through the reverse pass, which reloads instead of caching what
/// it reads there: the gradient frees them just before it returns.
void ReverseModeBuilder::freeDeferredBlocks() {
  if (!GradientReturn) // The reverse never returns: nothing is freed late.
    return;
  for (const CallBase *Free : R.Deferred)
    const_cast<CallBase *>(Free)->moveBefore(GradientReturn);
}

/// Reverse blocks use primal values of blocks that do not dominate them
/// (the reverse of a branch is reached from both arms). Route each such
/// value through a stack slot; promotion then builds the right phis.
void ReverseModeBuilder::repairDominance() {
  DominatorTree DT(Grad);
  SmallVector<Instruction *, 16> ToDemote;
  for (BasicBlock *BB : ForwardBlocks) {
    if (!DT.isReachableFromEntry(BB))
      continue;
    for (Instruction &I : *BB)
      if (any_of(I.uses(), [&](const Use &U) { return !DT.dominates(&I, U); }))
        ToDemote.push_back(&I);
  }
  for (Instruction *I : ToDemote)
    DemoteRegToStack(*I, /*VolatileLoads=*/false,
                     Grad.getEntryBlock().getFirstInsertionPt());
}

bool ReverseModeBuilder::providePrimalValues() {
  SmallPtrSet<BasicBlock *, 16> Forward(ForwardBlocks.begin(),
                                        ForwardBlocks.end());
  if (Turn.Block)
    Forward.insert(Turn.Block);
  ReverseCode Code{Grad, Forward, LI, Mirrors, *Loops, TripCounts};
  if (R.PlanOut)
    *R.PlanOut << "cache plan for the gradient of '" << demangle(R.SourceName)
               << "':\n";
  return adjoint::providePrimalValues(
      Code,
      [&](const Instruction &I) {
        if (const auto *LI = dyn_cast<LoadInst>(&I))
          return R.Reloadable.contains(LI);
        return isCheapToRecompute(I, R.Reloadable);
      },
      R.PlanOut);
}

void ReverseModeBuilder::promoteSlots() {
  sinkSlotInitializations(Grad);
  SmallVector<AllocaInst *, 16> Promotable;
  for (Instruction &I : Grad.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Promotable.push_back(AI);
  DominatorTree DT(Grad);
  PromoteMemToReg(Promotable, DT);
}

/// Creates the gradient function and moves \p Primal's body into it.
Function *createGradientFunction(
    const GradientRequest &R, const Twine &Name,
    SmallVectorImpl<Argument *> &OutArgs,
    SmallPtrSetImpl<const Argument *> &Active,
    DenseMap<const Argument *, Value *> &ArgShadows, Value *&ReturnAdjoint) {
  Function &Primal = R.Primal;
  FunctionType *FTy = gradientFunctionType(Primal, R.Activities);
  // A split pair's reverse takes the return's adjoint after the arguments.
  bool TakesAdjoint = R.Split && takesReturnAdjoint(Primal.getFunctionType(), *R.Split);
  if (TakesAdjoint) {
    SmallVector<Type *, 8> Params(FTy->params());
    Params.push_back(Primal.getReturnType());
    FTy = FunctionType::get(FTy->getReturnType(), Params, false);
  }
  Function *Grad = Function::Create(FTy, GlobalValue::InternalLinkage, Name,
                                    Primal.getParent());
  // Keep target and floating-point attributes; drop what describes the
  // primal's signature or effects.
  Grad->setAttributes(AttributeList::get(
      Grad->getContext(), AttributeList::FunctionIndex,
      AttrBuilder(Grad->getContext(), Primal.getAttributes().getFnAttrs())
          .removeAttribute(Attribute::Memory)
          .removeAttribute(Attribute::NoInline)
          .removeAttribute(Attribute::OptimizeNone)));
  Grad->setSubprogram(Primal.getSubprogram());
  Primal.setSubprogram(nullptr);

  unsigned GradArg = 0;
  for (Argument &A : Primal.args()) {
    ArgActivity Act = R.Activities[A.getArgNo()];
    Argument *New = Grad->getArg(GradArg++);
    New->setName(A.getName());
    A.replaceAllUsesWith(New);
    if (R.Activity.isActive(&A))
      Active.insert(New);
    if (Act == ArgActivity::Out)
      OutArgs.push_back(New);
    if (hasShadow(Act)) {
      Argument *Shadow = Grad->getArg(GradArg++);
      Shadow->setName(A.getName() + ".shadow");
      ArgShadows[New] = Shadow;
    }
  }
  ReturnAdjoint = nullptr;
  if (TakesAdjoint) {
    ReturnAdjoint = Grad->getArg(GradArg);
    ReturnAdjoint->setName("return.adjoint");
  }
  Grad->splice(Grad->end(), &Primal);
  return Grad;
}

/// Builds the combined forward and reverse function of \p R; for a split
/// build, also says where to cut it (\p Turn).
Function *synthesizeCombined(const GradientRequest &R, const Twine &Name,
                             TurnPoint *Turn) {
  Function &Primal = R.Primal;
  if (!checkDifferentiable(R)) {
    Primal.eraseFromParent();
    return nullptr;
  }

  // The type analysis describes the primal's values: ask it before the body
  // moves into the gradient function (whose arguments are other values).
  CopyLayouts Layouts;
  for (Instruction &I : instructions(Primal)) {
    std::string WhyNot;
    std::optional<TransferLayout> L;
    if (auto *MT = dyn_cast<MemTransferInst>(&I))
      L = transferLayout(MT->getRawDest(), MT->getLength(), R.Types, WhyNot);
    else if (auto *Call = dyn_cast<CallBase>(&I); Call && isReallocation(*Call))
      L = transferLayout(Call, constantReallocCopySize(*Call), R.Types,
                         WhyNot, /*UntouchedIfUnknown=*/true);
    if (L)
      Layouts[&I] = std::move(*L);
  }

  SmallVector<Argument *, 4> OutArgs;
  SmallPtrSet<const Argument *, 8> ActiveArgs;
  DenseMap<const Argument *, Value *> ArgShadows;
  Value *ReturnAdjoint;
  Function *Grad = createGradientFunction(R, Name, OutArgs, ActiveArgs,
                                          ArgShadows, ReturnAdjoint);
  ReverseModeBuilder Builder(R, *Grad, OutArgs, std::move(ActiveArgs),
                             ArgShadows, ReturnAdjoint, Layouts);
  auto Outcome = Builder.build();
  // Erased only now: the activity sets hold pointers to its arguments, which
  // must not be reused by new values while they are queried.
  Primal.eraseFromParent();
  if (Outcome != ReverseModeBuilder::Outcome::Built) {
    if (Outcome == ReverseModeBuilder::Outcome::Internal)
      reportError(R.Site, "internal error: a primal value the gradient of '" +
                              demangle(R.SourceName) +
                              "' needs could not be provided; please report "
                              "this");
    Grad->eraseFromParent();
    return nullptr;
  }

  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyFunction(*Grad, &OS)) {
    reportError(R.Site, "internal error: the generated gradient of '" +
                            demangle(R.SourceName) + "' is not valid IR (" +
                            Broken +
                            "); please report this");
    Grad->eraseFromParent();
    return nullptr;
  }
  if (Turn)
    *Turn = Builder.turn();
  return Grad;
}

} // namespace

Function *synthesizeGradient(const GradientRequest &R, const Twine &Name) {
  return synthesizeCombined(R, Name, nullptr);
}

bool synthesizeSplit(const GradientRequest &R, const CallDerivative &Into) {
  assert(R.Split && "a split build needs the callers' pattern");
  TurnPoint Turn;
  Function *Combined = synthesizeCombined(
      R, R.Primal.getName() + ".combined", &Turn);
  if (!Combined) {
    emitAbortingBody(*Into.Augmented);
    emitAbortingBody(*Into.Reverse);
    return false;
  }
  splitAtTurn(*Combined, Turn, Into);
  return true;
}

} // namespace adjoint
