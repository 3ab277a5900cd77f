//===- CallDispatch.cpp - Calls on one of several known functions ----------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// AD runs after the optimization pipeline, and SimplifyCFG merges calls
// that differ in one argument: the two `__enzyme_autodiff` calls of
//
//   if (c) __enzyme_autodiff((void *)f, x, dx); else __enzyme_autodiff((void *)g, x, dx);
//
// become one call on `select(c, f, g)` (a phi of f, g, h for a switch).
// Every function the call may differentiate is still known, so the call is
// split back into one call per function, chosen by comparing the pointer.
//
//===----------------------------------------------------------------------===//

#include "CallDispatch.h"
#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Beyond this many functions, the call is left for the parser to reject.
constexpr unsigned MaxTargets = 16;

/// The functions \p V is a select or phi tree of; empty when a leaf is not
/// a function (or when there are too many).
SmallSetVector<Function *, 4> possibleFunctions(Value *V) {
  SmallSetVector<Function *, 4> Targets;
  SmallVector<Value *, 8> Worklist = {V};
  SmallPtrSet<Value *, 8> Seen = {V};
  while (!Worklist.empty()) {
    Value *Cur = Worklist.pop_back_val()->stripPointerCasts();
    if (auto *GA = dyn_cast<GlobalAlias>(Cur))
      Cur = GA->getAliaseeObject();
    if (auto *F = dyn_cast_or_null<Function>(Cur)) {
      Targets.insert(F);
      if (Targets.size() > MaxTargets)
        return {};
      continue;
    }
    SmallVector<Value *, 4> Operands;
    if (auto *Sel = dyn_cast_or_null<SelectInst>(Cur))
      Operands = {Sel->getTrueValue(), Sel->getFalseValue()};
    else if (auto *Phi = dyn_cast_or_null<PHINode>(Cur))
      Operands.append(Phi->incoming_values().begin(),
                      Phi->incoming_values().end());
    else
      return {};
    // Reversed onto the stack: the functions come in operand order.
    for (Value *Op : reverse(Operands))
      if (Seen.insert(Op).second)
        Worklist.push_back(Op);
  }
  return Targets;
}

} // namespace

SmallVector<CallBase *, 2> dispatchOnFunction(CallBase &Call) {
  auto *CI = dyn_cast<CallInst>(&Call);
  unsigned FnIdx = returnsThroughBuffer(Call) ? 1 : 0;
  if (!CI || FnIdx >= Call.arg_size())
    return {&Call};
  Value *FnPtr = Call.getArgOperand(FnIdx);
  if (!isa<SelectInst, PHINode>(FnPtr->stripPointerCasts()))
    return {&Call};
  SmallSetVector<Function *, 4> Targets = possibleFunctions(FnPtr);
  if (Targets.empty())
    return {&Call};

  // Head compares FnPtr with each target but the last in turn; a match
  // branches to a block that calls the entry point on that target. The
  // last test block calls it on the last target. All branch to Tail.
  BasicBlock *Head = Call.getParent();
  Function &Caller = *Head->getParent();
  BasicBlock *Tail =
      Head->splitBasicBlock(&Call, Head->getName() + ".dispatched");
  Head->getTerminator()->eraseFromParent();
  PHINode *Result = nullptr;
  if (!Call.getType()->isVoidTy()) {
    Result = PHINode::Create(Call.getType(), Targets.size(), "", Tail->begin());
    Result->setDebugLoc(Call.getDebugLoc());
  }
  SmallVector<CallBase *, 2> Calls;
  BasicBlock *Test = Head;
  for (auto [I, Target] : enumerate(Targets)) {
    BasicBlock *Arm = Test;
    if (I + 1 != Targets.size()) {
      LLVMContext &Ctx = Call.getContext();
      Arm = BasicBlock::Create(Ctx, Head->getName() + ".on." + Target->getName(),
                               &Caller, Tail);
      auto *Next = BasicBlock::Create(Ctx, Head->getName() + ".next", &Caller,
                                      Tail);
      IRBuilder<> B(Test);
      B.SetCurrentDebugLocation(Call.getDebugLoc());
      B.CreateCondBr(B.CreateICmpEQ(FnPtr, Target), Arm, Next);
      Test = Next;
    }
    auto *Clone = cast<CallInst>(Call.clone());
    Clone->setArgOperand(FnIdx, Target);
    Clone->setName(Call.getName());
    Clone->insertInto(Arm, Arm->end());
    BranchInst::Create(Tail, Arm)->setDebugLoc(Call.getDebugLoc());
    if (Result)
      Result->addIncoming(Clone, Arm);
    Calls.push_back(Clone);
  }
  if (Result)
    Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return Calls;
}

} // namespace adjoint
