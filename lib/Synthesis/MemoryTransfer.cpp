//===- MemoryTransfer.cpp - Derivatives through memcpy ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "MemoryTransfer.h"
#include "Allocations.h"

#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Runs up to this many elements are unrolled; longer ones become a loop.
constexpr int64_t MaxUnrolledElements = 8;

/// dsrc[I] += ddst[I]; ddst[I] = 0, for element \p I of a float run.
void reverseElement(IRBuilderBase &B, const TransferLayout::FloatRun &Run,
                    Value *DstShadow, Value *SrcShadow, Value *I) {
  Type *T = Run.ElementType;
  auto Element = [&](Value *Base) {
    Value *RunStart = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base,
                                                   Run.Offset);
    return B.CreateInBoundsGEP(T, RunStart, I);
  };
  Value *Dst = Element(DstShadow);
  Value *Adjoint = B.CreateLoad(T, Dst);
  B.CreateStore(Constant::getNullValue(T), Dst);
  if (!SrcShadow)
    return;
  Value *Src = Element(SrcShadow);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(T, Src), Adjoint), Src);
}

/// for (I = 0; I != Count; ++I) Body(I), as blocks after B's position.
void emitLoop(IRBuilderBase &B, Value *Count,
              function_ref<void(Value *)> Body) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F->getContext();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "memcpy.reverse", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "memcpy.reverse.done", F);
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Pre);
  Body(I);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(Next, Count), Loop, Done);
  B.SetInsertPoint(Done);
}

} // namespace

std::optional<TransferLayout> transferLayout(const Value *Dst,
                                             const Value *Length,
                                             const FunctionTypeInfo &Types,
                                             std::string &WhyNot,
                                             bool UntouchedIfUnknown) {
  const auto *ConstLength = dyn_cast_or_null<ConstantInt>(Length);
  ByteSummary Bytes =
      ConstLength && ConstLength->isZero()
          ? ByteSummary()
          : Types.queryPointee(Dst, 0,
                               ConstLength ? ConstLength->getSExtValue()
                                           : FunctionTypeInfo::UnknownSize);
  // The runs that matter: all of them, or all but the untouched ones.
  SmallVector<TypeSegment, 4> Runs;
  for (const TypeSegment &S : Bytes.segments())
    if (!(UntouchedIfUnknown && S.Type == ConcreteType::Unknown))
      Runs.push_back(S);
  ByteSummary Relevant(Runs);
  if (Relevant.getClass() == ByteSummary::Undecided) {
    WhyNot = "cannot tell which of the bytes it copies are floating-point "
             "numbers (" +
             Relevant.describeUndecided() + ")";
    return std::nullopt;
  }
  LLVMContext &Ctx = Dst->getContext();
  const DataLayout &DL = Types.getFunction().getDataLayout();
  TransferLayout L;
  if (!ConstLength) {
    // A run-time length: an array of one kind of element.
    if (Runs.empty() || Relevant.isNonFloat()) {
      L.Pointers.push_back({0, -1});
      return L;
    }
    ConcreteType Kind = Relevant.getFloatKind();
    if (!Relevant.isFloat() || !Kind.isFloat()) {
      WhyNot = "copies of a run-time length over data that mixes "
               "floating-point numbers with other fields are not supported "
               "yet";
      return std::nullopt;
    }
    L.Floats.push_back({0, Kind.getIRType(Ctx), -1});
    return L;
  }
  for (const TypeSegment &S : Runs) {
    if (S.Type.isFloat()) {
      Type *T = S.Type.getIRType(Ctx);
      L.Floats.push_back(
          {S.Offset, T, S.Size / int64_t(DL.getTypeAllocSize(T))});
    } else if (S.Type == ConcreteType::Pointer) {
      L.Pointers.push_back({S.Offset, S.Size});
    }
  }
  return L;
}

void emitShadowPointerCopy(const TransferLayout &L, Value *Length,
                           Value *DstShadow, Value *SrcShadow,
                           IRBuilderBase &B, bool MayOverlap) {
  for (const TransferLayout::PointerRun &Run : L.Pointers) {
    Value *Size = Run.Size < 0 ? Length : B.getInt64(uint64_t(Run.Size));
    Value *Dst =
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), DstShadow, Run.Offset);
    Value *Src =
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), SrcShadow, Run.Offset);
    if (MayOverlap)
      B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(), Size);
    else
      B.CreateMemCpy(Dst, MaybeAlign(), Src, MaybeAlign(), Size);
  }
}

void emitReverseMove(const TransferLayout &L, Value *Length, Value *DstShadow,
                     Value *SrcShadow, IRBuilderBase &B) {
  if (!SrcShadow) // Nothing to hand back: only consume.
    return emitReverseCopy(L, Length, DstShadow, nullptr, B);
  Value *Bytes = B.CreateZExtOrTrunc(Length, B.getInt64Ty());
  Value *Saved = emitMalloc(Bytes, B, "memmove.adjoints");
  B.CreateMemCpy(Saved, MaybeAlign(), DstShadow, MaybeAlign(), Bytes);
  emitReverseCopy(L, Length, DstShadow, nullptr, B);
  emitReverseCopy(L, Length, Saved, SrcShadow, B);
  emitFree(Saved, B);
}

void emitReverseCopy(const TransferLayout &L, Value *Length,
                     Value *DstShadow, Value *SrcShadow, IRBuilderBase &B) {
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  for (const TransferLayout::FloatRun &Run : L.Floats) {
    if (Run.Count >= 0 && Run.Count <= MaxUnrolledElements) {
      for (int64_t I = 0; I != Run.Count; ++I)
        reverseElement(B, Run, DstShadow, SrcShadow, B.getInt64(I));
      continue;
    }
    Value *Count =
        Run.Count >= 0
            ? B.getInt64(Run.Count)
            : B.CreateUDiv(
                  B.CreateZExtOrTrunc(Length, B.getInt64Ty()),
                  B.getInt64(DL.getTypeAllocSize(Run.ElementType)));
    emitLoop(B, Count, [&](Value *I) {
      reverseElement(B, Run, DstShadow, SrcShadow, I);
    });
  }
}

} // namespace adjoint
