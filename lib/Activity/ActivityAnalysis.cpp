//===- ActivityAnalysis.cpp - What carries derivatives ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Values of these types can hold a derivative, or point to memory that
/// holds one. Integers and booleans never do.
bool mayCarryDerivative(const Type *T) {
  return containsFloat(T) || T->isPointerTy();
}

} // namespace

void ActivityInfo::markNeighboursVaried(
    const Value *Ptr, function_ref<void(const Value *)> MarkVaried) {
  // A pointer loaded from where a varied one was stored may be either, as
  // for a phi of pointers: the others need shadows too (an array of
  // pointers to a C++ object holding a derivative and to one that does
  // not). Only the function's own objects can get one; a pointer from
  // elsewhere stays an error.
  SmallVector<const Value *, 4> Holders;
  getUnderlyingObjects(Ptr, Holders);
  for (const Value *Holder : Holders)
    for (const Value *Stored : StoredPointers.lookup(Holder)) {
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Stored, Objects);
      if (all_of(Objects, [](const Value *O) {
            return isa<AllocaInst>(O) || isNoAliasCall(O);
          }))
        markMemoryVaried(Stored, MarkVaried);
    }
}

DenseMap<const Value *, SmallVector<const Value *, 2>>
ActivityInfo::pointersStoredInto(const Function &F) {
  DenseMap<const Value *, SmallVector<const Value *, 2>> Stored;
  for (const Instruction &I : instructions(F)) {
    const auto *SI = dyn_cast<StoreInst>(&I);
    if (!SI || !SI->getValueOperand()->getType()->isPointerTy())
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(SI->getPointerOperand(), Objects);
    for (const Value *Object : Objects)
      Stored[Object].push_back(SI->getValueOperand());
  }
  return Stored;
}

SmallVector<ArgActivity, 8> defaultActivities(const Function &F) {
  SmallVector<ArgActivity, 8> Result;
  for (const Argument &A : F.args()) {
    if (isFloatAggregate(A.getType()))
      Result.push_back(ArgActivity::Out);
    else if (A.getType()->isPointerTy())
      Result.push_back(ArgActivity::Dup);
    else
      Result.push_back(ArgActivity::Const);
  }
  return Result;
}

ActivityInfo::ActivityInfo(const Function &F, ArrayRef<ArgActivity> Args,
                           bool ReturnIsOutput,
                           function_ref<bool(const CallBase &)> IsOpaqueCall)
    : F(F), OpaqueCall(IsOpaqueCall),
      CustomDerivatives(collectCustomDerivatives(*F.getParent())) {
  propagateVaried(Args);
  propagateUseful(ReturnIsOutput);
}

/// A call that synthesis differentiates as a call (to a function defined in
/// the module, recursion, a function pointer, a custom derivative) rather
/// than by a rule: it may read and write memory through every pointer it is
/// given. Declarations (libm, malloc, printf, ...) are judged by what is
/// known about them.
bool ActivityInfo::isOpaqueCall(const CallBase &Call) const {
  if (isa<IntrinsicInst>(Call) || Call.onlyReadsMemory())
    return false;
  if (OpaqueCall)
    return OpaqueCall(Call);
  const Function *Callee = Call.getCalledFunction();
  return !Callee || !Callee->isDeclaration() ||
         CustomDerivatives.contains(Callee);
}

void ActivityInfo::propagateVaried(ArrayRef<ArgActivity> Args) {
  SmallVector<const Value *, 32> Worklist;
  auto MarkVaried = [&](const Value *V) {
    const auto *I = dyn_cast<Instruction>(V);
    if ((isa<Argument>(V) || (I && I->getFunction() == &F)) &&
        mayCarryDerivative(V->getType()) && Varied.insert(V).second)
      Worklist.push_back(V);
  };
  for (const Argument &A : F.args())
    if (Args[A.getArgNo()] != ArgActivity::Const)
      MarkVaried(&A);
  StoredPointers = pointersStoredInto(F);

  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        // Varied data stored to memory makes that memory varied: every
        // pointer into the same object reads it back.
        if (SI->getValueOperand() == V) {
          markMemoryVaried(SI->getPointerOperand(), MarkVaried);
          if (V->getType()->isPointerTy())
            markNeighboursVaried(SI->getPointerOperand(), MarkVaried);
        }
        continue;
      }
      if (const auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawSource() == V)
          markMemoryVaried(MT->getRawDest(), MarkVaried);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->getIntrinsicID() == Intrinsic::masked_store) {
        if (II->getArgOperand(0) == V)
          markMemoryVaried(II->getArgOperand(1), MarkVaried);
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(U); Call && isOpaqueCall(*Call))
        // The callee may store what it derives from V anywhere it can reach.
        for (const Value *Arg : Call->args())
          if (Arg->getType()->isPointerTy())
            markMemoryVaried(Arg, MarkVaried);
      if (const auto *I = dyn_cast<Instruction>(U)) {
        // A pointer that may point to varied memory or elsewhere: the other
        // memory is read and written through it too, so it needs a shadow.
        if ((isa<PHINode>(I) || isa<SelectInst>(I)) &&
            I->getType()->isPointerTy())
          for (const Value *Op : I->operands())
            if (Op != V && Op->getType()->isPointerTy())
              markMemoryVaried(Op, MarkVaried);
        MarkVaried(I);
      }
    }
  }
}

void ActivityInfo::markMemoryVaried(
    const Value *Ptr, function_ref<void(const Value *)> MarkVaried) {
  MarkVaried(Ptr);
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *Object : Objects) {
    MarkVaried(Object);
    // A pointer loaded from memory (the rows of a matrix that a
    // std::vector<std::vector<double>> keeps on the heap): the pointers
    // stored where it was loaded from may point to this memory too, and
    // the memory holding them holds their shadows.
    const auto *LI = dyn_cast<LoadInst>(Object);
    if (!LI)
      continue;
    SmallVector<const Value *, 4> Holders;
    getUnderlyingObjects(LI->getPointerOperand(), Holders);
    for (const Value *Holder : Holders) {
      if (!HoldersMarked.insert(Holder).second)
        continue;
      MarkVaried(Holder);
      for (const Value *Stored : StoredPointers.lookup(Holder))
        markMemoryVaried(Stored, MarkVaried);
    }
  }
}

void ActivityInfo::propagateUseful(bool ReturnIsOutput) {
  SmallVector<const Value *, 32> Worklist;
  auto MarkUseful = [&](const Value *V) {
    if ((isa<Instruction>(V) || isa<Argument>(V)) &&
        mayCarryDerivative(V->getType()) && Useful.insert(V).second)
      Worklist.push_back(V);
  };
  for (const Instruction &I : instructions(F)) {
    if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
      // A returned pointer is an output too when the caller reads
      // derivatives through it (a call kept in another gradient).
      if (const Value *RV = Ret->getReturnValue(); RV && ReturnIsOutput)
        MarkUseful(RV);
    } else if (const auto *Call = dyn_cast<CallBase>(&I);
               Call && isOpaqueCall(*Call)) {
      // Like a store: what the callee writes into memory that carries
      // derivatives may be an output, and may come from any argument.
      if (any_of(Call->args(), [&](const Use &Arg) {
            return Arg->getType()->isPointerTy() && Varied.contains(Arg.get());
          }))
        for (const Value *Arg : Call->args())
          MarkUseful(Arg);
    } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      // Memory that carries derivatives is an output: its shadow holds a
      // seed, whatever is stored there receives it.
      if (Varied.contains(SI->getPointerOperand())) {
        MarkUseful(SI->getValueOperand());
        MarkUseful(SI->getPointerOperand());
      }
    } else if (const auto *II = dyn_cast<IntrinsicInst>(&I);
               II && II->getIntrinsicID() == Intrinsic::masked_store) {
      // The same for the lanes a vectorized conditional store writes.
      if (Varied.contains(II->getArgOperand(1))) {
        MarkUseful(II->getArgOperand(0));
        MarkUseful(II->getArgOperand(1));
      }
    } else if (const auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      // Overwritten the same way, so its shadow must be consumed; a copy's
      // source receives what the destination's shadow holds.
      if (Varied.contains(MI->getRawDest())) {
        MarkUseful(MI->getRawDest());
        if (const auto *MT = dyn_cast<MemTransferInst>(MI))
          MarkUseful(MT->getRawSource());
      }
    }
  }

  while (!Worklist.empty()) {
    const auto *I = dyn_cast<Instruction>(Worklist.pop_back_val());
    if (!I)
      continue;
    for (const Value *Op : I->operands())
      MarkUseful(Op);
  }
}

void ActivityInfo::print(raw_ostream &OS) const {
  OS << "activity of '" << F.getName() << "':\n";
  for (const Argument &A : F.args()) {
    OS << "  " << (isActive(&A) ? "active   " : "constant ") << "arg ";
    A.printAsOperand(OS, /*PrintType=*/false);
    OS << '\n';
  }
  for (const Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy())
      continue;
    OS << "  " << (isActive(&I) ? "active   " : "constant ");
    I.printAsOperand(OS, /*PrintType=*/false);
    OS << " = " << I.getOpcodeName() << '\n';
  }
}

PreservedAnalyses ActivityPrinterPass::run(Function &F,
                                           FunctionAnalysisManager &) {
  if (!F.isDeclaration())
    ActivityInfo(F, defaultActivities(F),
                 containsFloat(F.getReturnType()))
        .print(OS);
  return PreservedAnalyses::all();
}

} // namespace adjoint
