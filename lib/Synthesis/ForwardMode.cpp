//===- ForwardMode.cpp - Forward mode ---------------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Shape of a forward derivative: the clone's body, unchanged, with
//
//   shadows          of every active pointer, as reverse mode computes them
//                    (ShadowMemory.h): zeroed shadow allocas and heap blocks,
//                    shadow GEPs, loads of shadow pointers, ...
//   tangents         right after each active instruction: from the rule
//                    table for arithmetic and math functions; the same
//                    operation on tangents for moves of lanes and fields and
//                    for select; a tangent phi next to each active phi
//   shadow writes    right after each store, memset, memcpy and free through
//                    an active pointer: the same on the shadow
//   derivative calls in place of calls left after inlining (to a forward
//                    derivative of the callee that returns the value too),
//                    and after calls of functions with a registered
//                    derivative (to that derivative)
//
// and each `ret` returning the tangent of the returned value. Tangents are
// SSA values: they follow the primal control flow, so branches and loops
// need nothing of their own.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/ForwardMode.h"
#include "Allocations.h"
#include "CustomDerivativeCalls.h"
#include "Differentiability.h"
#include "ShadowMemory.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Rules/DerivativeRules.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include <array>

#define DEBUG_TYPE "adjoint-forward"

using namespace llvm;

namespace adjoint {

namespace {

/// Emits right after an instruction, with its location and floating-point
/// flags: the derivative code of an instruction.
class BuilderAfter : public IRBuilder<> {
public:
  explicit BuilderAfter(Instruction &I) : IRBuilder<>(I.getNextNode()) {
    SetCurrentDebugLocation(I.getDebugLoc());
    if (isa<FPMathOperator>(I))
      setFastMathFlags(I.getFastMathFlags());
  }
};

/// The tangent f returns: of its floating-point result, if it has one.
Type *tangentType(Type *Ret) {
  return isFloatAggregate(Ret) ? Ret : nullptr;
}

} // namespace

FunctionType *forwardFunctionType(const Function &F,
                                  ArrayRef<ArgActivity> Activities,
                                  bool ReturnPrimal) {
  SmallVector<Type *, 8> Params;
  for (const Argument &A : F.args()) {
    Params.push_back(A.getType());
    if (hasShadow(Activities[A.getArgNo()]))
      Params.push_back(A.getType());
  }
  Type *Ret = F.getReturnType();
  Type *Tangent = tangentType(Ret);
  Type *Result = Type::getVoidTy(F.getContext());
  if (ReturnPrimal)
    Result = Tangent ? StructType::get(F.getContext(), {Ret, Tangent}) : Ret;
  else if (Tangent)
    Result = Tangent;
  return FunctionType::get(Result, Params, /*isVarArg=*/false);
}

namespace {

/// Does \p Call need its derivative at all? Only when a derivative flows
/// in or out of it.
bool isDifferentiated(const CallBase &Call,
                      function_ref<bool(const Value *)> IsActive) {
  return IsActive(&Call) || any_of(Call.args(), [&](const Use &A) {
           return IsActive(A.get());
         });
}

/// Which calls of the clone a forward derivative differentiates by calling
/// a derivative function, and how.
class DerivedCalls {
public:
  DerivedCalls(const ForwardRequest &R) : R(R) {}

  /// Calls the derivative replaces or follows: to functions with a
  /// registered derivative, and to functions defined in the module (left
  /// by inlining: recursion), unless they return a pointer that needs a
  /// shadow. (Those that may unwind are reported by checkCalls.)
  bool handles(const CallBase &Call) const {
    const Function *Callee = Call.getCalledFunction();
    if (!Callee)
      return false;
    if (R.Custom.contains(Callee))
      return true;
    return !Callee->isDeclaration() && !Callee->isVarArg() &&
           !Callee->isIntrinsic() &&
           !(Call.getType()->isPointerTy() && R.Activity.isActive(&Call));
  }

  /// Reports the handled calls that cannot be differentiated, and decides
  /// how every registered derivative the clone calls is called. Before the
  /// body moves: activity is known for the clone's values.
  bool checkCalls(const Twine &Context) {
    bool Ok = true;
    auto IsActive = [&](const Value *V) { return R.Activity.isActive(V); };
    for (Instruction &I : instructions(R.Primal)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || !handles(*Call) || !isDifferentiated(*Call, IsActive))
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (isa<InvokeInst>(Call)) {
        reportError(*Call, "the call to '" + demangle(Callee->getName()) +
                               "' may throw an exception, and forward mode "
                               "cannot differentiate calls that may unwind "
                               "yet; declare it noexcept (C++)" +
                               Context);
        Ok = false;
        continue;
      }
      auto It = R.Custom.find(Callee);
      if (It == R.Custom.end())
        continue;
      std::optional<TangentSlots> Slots =
          matchCustomDerivative(*Call, It->second, IsActive, Context);
      if (Slots)
        CustomSlots[Call] = std::move(*Slots);
      else
        Ok = false;
    }
    return Ok;
  }

  bool isCustom(const CallBase &Call) const {
    return R.Custom.contains(Call.getCalledFunction());
  }

  /// Where the registered derivative called in place of \p Call takes
  /// tangents; null when \p Call is not such a call.
  const TangentSlots *customSlots(const CallBase &Call) const {
    auto It = CustomSlots.find(&Call);
    return It == CustomSlots.end() ? nullptr : &It->second;
  }

private:
  const ForwardRequest &R;
  DenseMap<const CallBase *, TangentSlots> CustomSlots;
};

class ForwardModeBuilder {
public:
  ForwardModeBuilder(const ForwardRequest &R, Function &Fwd,
                     const DerivedCalls &Calls,
                     SmallPtrSet<const Argument *, 8> ActiveArgs,
                     const DenseMap<const Argument *, Value *> &ArgShadows,
                     DenseMap<const Value *, Value *> ArgTangents)
      : R(R), Fwd(Fwd), Calls(Calls), ActiveArgs(std::move(ActiveArgs)),
        Tangents(std::move(ArgTangents)),
        Shadows([this](const Value *V) { return isActive(V); }, ArgShadows,
                /*OnCall=*/[](CallBase &) {}) {}

  void build();

private:
  void differentiate(Instruction &I);
  void differentiateCall(CallBase &Call);
  void tangentPhi(PHINode &Phi);
  void tangentByRule(Instruction &I, const DerivativeRule &Rule);
  void tangentByMovement(Instruction &I);
  void tangentLoad(LoadInst &LI);
  void tangentMaskedLoad(IntrinsicInst &Load);
  void mirrorStore(StoreInst &SI);
  void mirrorMaskedStore(IntrinsicInst &Store);
  void mirrorMemSet(MemSetInst &MS);
  void mirrorMemTransfer(MemTransferInst &MT);
  void mirrorDeallocation(CallBase &Dealloc);
  void freeResizedShadow(CallBase &Realloc, Instruction &Before);
  void callDerivative(CallInst &Call);
  void callCustomDerivative(CallInst &Call, const TangentSlots &Slots);
  void rewriteReturn(ReturnInst &Ret);

  Value *tangentOf(Value *V) const;
  void setTangent(Value *V, Value *Tangent, const Twine &Name);

  bool isActive(const Value *V) const {
    // Arguments of Fwd stand for the arguments of the primal clone.
    if (const auto *A = dyn_cast<Argument>(V))
      return A->getParent() == &Fwd && ActiveArgs.contains(A);
    return R.Activity.isActive(V);
  }

  const ForwardRequest &R;
  Function &Fwd;
  const DerivedCalls &Calls;
  SmallPtrSet<const Argument *, 8> ActiveArgs; ///< Fwd's active arguments.
  DenseMap<const Value *, Value *> Tangents;
  SmallVector<std::pair<PHINode *, PHINode *>, 8> TangentPhis;
  SmallVector<ReturnInst *, 4> Returns;
  /// Calls replaced by derivative calls, and what replaces their values.
  SmallVector<std::pair<CallInst *, Value *>, 4> Replaced;
  /// The primal instruction after each realloc, taken before shadows are
  /// emitted: a shadow block's code sits between the two.
  DenseMap<const CallBase *, Instruction *> AfterRealloc;
  ShadowMemory Shadows;
};

Value *ForwardModeBuilder::tangentOf(Value *V) const {
  if (Value *T = Tangents.lookup(V))
    return T;
  Type *Ty = V->getType();
  if (Ty->isPtrOrPtrVectorTy())
    return isActive(V) && Ty->isPointerTy() ? Shadows.shadowOf(V)
                                            : Constant::getNullValue(Ty);
  // Constants and inactive values carry no derivative. (An active value
  // always has its tangent by now: blocks are visited in reverse
  // post-order, and phis take theirs at the end.)
  assert((!isActive(V) || isa<Constant>(V)) && "active value without tangent");
  return Constant::getNullValue(Ty);
}

void ForwardModeBuilder::setTangent(Value *V, Value *Tangent,
                                    const Twine &Name) {
  if (isa<Instruction>(Tangent) && !Tangent->hasName())
    Tangent->setName(Name);
  Tangents[V] = Tangent;
}

void ForwardModeBuilder::build() {
  // The primal instructions in reverse post-order (operands before their
  // users, phis aside), taken before shadows add instructions of their own.
  SmallVector<Instruction *, 64> Primal;
  ReversePostOrderTraversal<Function *> RPOT(&Fwd);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB) {
      Primal.push_back(&I);
      if (auto *Call = dyn_cast<CallBase>(&I); Call && isReallocation(*Call))
        AfterRealloc[Call] = I.getNextNode();
    }
  Shadows.build(Fwd);

  for (Instruction *I : Primal)
    differentiate(*I);
  for (auto [Phi, Tangent] : TangentPhis)
    for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I)
      Tangent->addIncoming(tangentOf(Phi->getIncomingValue(I)),
                           Phi->getIncomingBlock(I));
  for (ReturnInst *Ret : Returns)
    rewriteReturn(*Ret);
  // Last: the calls' values were looked up by the calls themselves.
  for (auto [Call, Value] : Replaced) {
    if (Value)
      Call->replaceAllUsesWith(Value);
    Call->eraseFromParent();
  }
}

void ForwardModeBuilder::differentiate(Instruction &I) {
  if (auto *Phi = dyn_cast<PHINode>(&I)) {
    if (isActive(Phi) && !Phi->getType()->isPointerTy())
      tangentPhi(*Phi);
    return;
  }
  if (auto *Ret = dyn_cast<ReturnInst>(&I))
    return Returns.push_back(Ret);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return mirrorStore(*SI);
  if (auto *MS = dyn_cast<MemSetInst>(&I))
    return mirrorMemSet(*MS);
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return mirrorMemTransfer(*MT);
  // A registered derivative wins over the table (one for `sin`, say).
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && (!findRule(*Call) || Calls.isCustom(*Call)))
    return differentiateCall(*Call);
  // Pointers have shadows (ShadowMemory), not tangents.
  if (!isActive(&I) || I.getType()->isPointerTy())
    return;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return tangentLoad(*LI);
  if (isDataMovement(I) || isa<SelectInst>(I))
    return tangentByMovement(I);
  const DerivativeRule *Rule = findRule(I);
  assert(Rule && "checkDifferentiable admits only instructions with rules");
  tangentByRule(I, *Rule);
}

/// Calls without a rule: heap functions, masked memory access, and calls
/// that call a derivative. Anything else was accepted by the checker as
/// receiving and producing no derivative.
void ForwardModeBuilder::differentiateCall(CallBase &Call) {
  if (isDeallocation(Call))
    return mirrorDeallocation(Call);
  if (isReallocation(Call) && isActive(&Call))
    return freeResizedShadow(Call, *AfterRealloc.lookup(&Call));
  if (auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    if (II->getIntrinsicID() == Intrinsic::masked_store)
      return mirrorMaskedStore(*II);
    if (II->getIntrinsicID() == Intrinsic::masked_load && isActive(II) &&
        !II->getType()->isPtrOrPtrVectorTy())
      return tangentMaskedLoad(*II);
    return;
  }
  auto *CI = dyn_cast<CallInst>(&Call);
  if (!CI || !Calls.handles(Call) ||
      !isDifferentiated(Call, [&](const Value *V) { return isActive(V); }))
    return;
  if (Calls.isCustom(Call)) {
    if (const TangentSlots *Slots = Calls.customSlots(Call))
      callCustomDerivative(*CI, *Slots);
    return;
  }
  callDerivative(*CI);
}

void ForwardModeBuilder::tangentPhi(PHINode &Phi) {
  IRBuilder<> B(Phi.getParent(), Phi.getParent()->getFirstNonPHIIt());
  PHINode *Tangent = B.CreatePHI(Phi.getType(), Phi.getNumIncomingValues(),
                                 Phi.getName() + ".tangent");
  Tangents[&Phi] = Tangent;
  TangentPhis.push_back({&Phi, Tangent});
}

namespace {

/// The tangent \p T of an operand, in the floating-point precision of the
/// result type \p ResultTy: conversions (fpext, fptrunc) have the partial
/// `one` of the result's type, so the operand's tangent is converted first.
Value *inResultPrecision(IRBuilderBase &B, Value *T, Type *ResultTy) {
  Type *From = T->getType()->getScalarType(), *To = ResultTy->getScalarType();
  if (From == To || !From->isFloatingPointTy() || !To->isFloatingPointTy())
    return T;
  Type *Target = To;
  if (auto *VT = dyn_cast<VectorType>(T->getType()))
    Target = VectorType::get(To, VT->getElementCount());
  return B.CreateFPCast(T, Target);
}

/// Brings a term of the tangent to the result's shape: the partial of a
/// reduction with respect to a vector operand is a row of the Jacobian,
/// and the term is its dot product with the operand's tangent, so its lanes
/// are added up; a scalar term of a vector result applies to every lane.
Value *inResultShape(IRBuilderBase &B, Value *Term, Type *ResultTy) {
  Type *Ty = Term->getType();
  if (Ty == ResultTy)
    return Term;
  if (Ty->isVectorTy() && !ResultTy->isVectorTy())
    return B.CreateFAddReduce(ConstantFP::getNegativeZero(ResultTy), Term);
  if (!Ty->isVectorTy())
    if (auto *VT = dyn_cast<VectorType>(ResultTy))
      return B.CreateVectorSplat(VT->getElementCount(), Term);
  return Term;
}

} // namespace

/// tangent(r) = sum over the active operands x_i of partial_i * tangent(x_i).
void ForwardModeBuilder::tangentByRule(Instruction &I,
                                       const DerivativeRule &Rule) {
  BuilderAfter B(I);
  Type *Ty = I.getType();
  rules::Expr Sum;
  for (unsigned Idx = 0; Idx != Rule.NumOperands; ++Idx) {
    Value *Operand = ruleOperand(I, Idx);
    if (!isActive(Operand))
      continue;
    rules::Expr Partial = emitPartial(Rule, I, Idx, B);
    if (Partial.isNone())
      continue;
    rules::Expr Tangent(B, inResultPrecision(B, tangentOf(Operand), Ty));
    rules::Expr Term(B, inResultShape(B, (Partial * Tangent).value(), Ty));
    Sum = Sum.isNone() ? Term : Sum + Term;
  }
  setTangent(&I, Sum.isNone() ? Constant::getNullValue(Ty) : Sum.value(),
             I.getName() + ".tangent");
}

/// Moves of lanes and fields are linear: the tangent of the result is the
/// same move of the operands' tangents. So is select, which routes the
/// tangent of the operand it chooses (its rule's partials are that choice
/// written as 0 and 1; selecting avoids the products).
void ForwardModeBuilder::tangentByMovement(Instruction &I) {
  BuilderAfter B(I);
  Instruction *Tangent = I.clone();
  for (Use &Op : Tangent->operands())
    if (containsFloat(Op->getType()) || Op->getType()->isPointerTy())
      Op.set(tangentOf(Op.get()));
  B.Insert(Tangent, I.getName() + ".tangent");
  Tangents[&I] = Tangent;
}

/// The tangent of `V = *P` is `*shadow(P)`.
void ForwardModeBuilder::tangentLoad(LoadInst &LI) {
  BuilderAfter B(LI);
  setTangent(&LI,
             B.CreateAlignedLoad(LI.getType(),
                                 Shadows.shadowOf(LI.getPointerOperand()),
                                 LI.getAlign()),
             LI.getName() + ".tangent");
}

/// `V = masked.load(P, Mask, Passthru)`: the lanes read from memory take
/// their tangents from the shadow, the others from Passthru's tangent.
void ForwardModeBuilder::tangentMaskedLoad(IntrinsicInst &Load) {
  BuilderAfter B(Load);
  Value *Ptr = Load.getArgOperand(0), *Mask = Load.getArgOperand(2);
  Value *Passthru = tangentOf(Load.getArgOperand(3));
  Align Alignment = cast<ConstantInt>(Load.getArgOperand(1))->getAlignValue();
  Value *Tangent =
      isActive(Ptr)
          ? B.CreateMaskedLoad(Load.getType(), Shadows.shadowOf(Ptr),
                               Alignment, Mask, Passthru)
          : B.CreateSelect(Mask, Constant::getNullValue(Load.getType()),
                           Passthru);
  setTangent(&Load, Tangent, Load.getName() + ".tangent");
}

/// `*P = V` through an active pointer stores V's tangent into the shadow
/// (a stored pointer's shadow is stored by ShadowMemory). The shadow of an
/// integer is zero: the optimizer writes zeros as `store i64 0` even over
/// doubles, and integers carry no derivative.
void ForwardModeBuilder::mirrorStore(StoreInst &SI) {
  Value *Ptr = SI.getPointerOperand(), *Val = SI.getValueOperand();
  Type *Ty = Val->getType();
  if (!isActive(Ptr) || Ty->isPtrOrPtrVectorTy())
    return;
  BuilderAfter B(SI);
  Value *Tangent =
      containsFloat(Ty) ? tangentOf(Val) : Constant::getNullValue(Ty);
  B.CreateAlignedStore(Tangent, Shadows.shadowOf(Ptr), SI.getAlign());
}

void ForwardModeBuilder::mirrorMaskedStore(IntrinsicInst &Store) {
  Value *Val = Store.getArgOperand(0), *Ptr = Store.getArgOperand(1);
  Type *Ty = Val->getType();
  if (!isActive(Ptr) || Ty->isPtrOrPtrVectorTy())
    return;
  BuilderAfter B(Store);
  Align Alignment = cast<ConstantInt>(Store.getArgOperand(2))->getAlignValue();
  Value *Tangent =
      containsFloat(Ty) ? tangentOf(Val) : Constant::getNullValue(Ty);
  B.CreateMaskedStore(Tangent, Shadows.shadowOf(Ptr), Alignment,
                      Store.getArgOperand(3));
}

/// memset writes constants: their tangents are zero.
void ForwardModeBuilder::mirrorMemSet(MemSetInst &MS) {
  if (!isActive(MS.getDest()))
    return;
  BuilderAfter B(MS);
  B.CreateMemSet(Shadows.shadowOf(MS.getDest()), B.getInt8(0), MS.getLength(),
                 MS.getDestAlign());
}

/// A copy copies the shadow bytes too, whatever they hold (tangents,
/// shadow pointers); from memory without a shadow, zeros.
void ForwardModeBuilder::mirrorMemTransfer(MemTransferInst &MT) {
  if (!isActive(MT.getRawDest()))
    return;
  BuilderAfter B(MT);
  Value *Dst = Shadows.shadowOf(MT.getRawDest());
  if (!isActive(MT.getRawSource())) {
    B.CreateMemSet(Dst, B.getInt8(0), MT.getLength(), MT.getDestAlign());
    return;
  }
  Value *Src = Shadows.shadowOf(MT.getRawSource());
  if (isa<MemMoveInst>(MT))
    B.CreateMemMove(Dst, MT.getDestAlign(), Src, MT.getSourceAlign(),
                    MT.getLength());
  else
    B.CreateMemCpy(Dst, MT.getDestAlign(), Src, MT.getSourceAlign(),
                   MT.getLength());
}

/// A shadow block is freed with its primal block, wherever the pointer
/// came from: a block fn allocated may come back from memory (a list's
/// nodes), and a block the caller hands fn to free comes with its shadow.
void ForwardModeBuilder::mirrorDeallocation(CallBase &Dealloc) {
  Value *Ptr = Dealloc.getArgOperand(0);
  if (!isActive(Ptr) || isa<ConstantPointerNull>(Ptr))
    return;
  BuilderAfter B(Dealloc);
  freeShadow(Dealloc, Shadows.shadowOf(Ptr), B);
}

/// realloc's shadow is a new zeroed block holding the old shadow's bytes
/// (ShadowMemory); the primal realloc freed the old primal block, so the
/// old shadow block goes too, once copied.
void ForwardModeBuilder::freeResizedShadow(CallBase &Realloc,
                                           Instruction &Before) {
  Value *Old = Realloc.getArgOperand(0);
  if (!isActive(Old) || isa<ConstantPointerNull>(Old))
    return;
  IRBuilder<> B(&Before);
  B.SetCurrentDebugLocation(Realloc.getDebugLoc());
  Value *OldShadow = Shadows.shadowOf(Old);
  emitFree(OldShadow, B);
}

/// A call left after inlining: the callee's forward derivative for this
/// call's activities does the call's work and returns the tangent as well.
void ForwardModeBuilder::callDerivative(CallInst &Call) {
  Function &Callee = *Call.getCalledFunction();
  SmallVector<ArgActivity, 8> Pattern;
  SmallVector<Value *, 8> Args;
  // A struct passed by value in memory is copied for the callee; so is its
  // shadow.
  SmallVector<std::pair<unsigned, Type *>, 2> ByVal;
  for (Use &Arg : Call.args()) {
    bool Active = isActive(Arg.get());
    Type *ByValTy = Callee.getParamByValType(Arg.getOperandNo());
    Pattern.push_back(Active ? ArgActivity::Dup : ArgActivity::Const);
    if (ByValTy)
      ByVal.push_back({Args.size(), ByValTy});
    Args.push_back(Arg.get());
    if (!Active)
      continue;
    if (ByValTy)
      ByVal.push_back({Args.size(), ByValTy});
    Args.push_back(tangentOf(Arg.get()));
  }
  Function *Derivative = R.DerivativeOf(Callee, Pattern);
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  CallInst *New = B.CreateCall(Derivative, Args);
  for (auto [Index, Ty] : ByVal)
    New->addParamAttr(Index,
                      Attribute::getWithByValType(Call.getContext(), Ty));
  Value *Primal = Call.getType()->isVoidTy() ? nullptr : New;
  if (tangentType(Callee.getReturnType())) {
    Primal = B.CreateExtractValue(New, 0, Call.getName());
    setTangent(&Call, B.CreateExtractValue(New, 1),
               Call.getName() + ".tangent");
  }
  Replaced.push_back({&Call, Primal});
}

/// A call of a function with a registered derivative stays; the derivative
/// follows it and computes the tangents.
void ForwardModeBuilder::callCustomDerivative(CallInst &Call,
                                              const TangentSlots &Slots) {
  Function &Callee = *Call.getCalledFunction();
  Function *Derivative = R.Custom.lookup(&Callee).Derivative;
  SmallVector<Value *, 8> Args;
  for (Use &Arg : Call.args()) {
    Args.push_back(Arg.get());
    if (Slots[Arg.getOperandNo()])
      Args.push_back(tangentOf(Arg.get()));
  }
  IRBuilder<> B(Call.getNextNode());
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  CallInst *New = B.CreateCall(Derivative, Args);
  New->setCallingConv(Derivative->getCallingConv());
  if (tangentType(Callee.getReturnType()))
    setTangent(&Call, New, Call.getName() + ".tangent");
}

void ForwardModeBuilder::rewriteReturn(ReturnInst &Ret) {
  Value *RV = Ret.getReturnValue();
  Type *Ty = Fwd.getReturnType();
  IRBuilder<> B(&Ret);
  B.SetCurrentDebugLocation(Ret.getDebugLoc());
  if (Ty->isVoidTy())
    B.CreateRetVoid();
  else if (!R.ReturnPrimal)
    B.CreateRet(tangentOf(RV));
  else if (Ty != RV->getType())
    B.CreateAggregateRet(std::array<Value *, 2>{RV, tangentOf(RV)}.data(),
                         2);
  else
    return; // Only the value, as it is.
  Ret.eraseFromParent();
}

/// The moment a derivative starts: moves \p Primal's body into \p Fwd and
/// maps the parameters.
void moveBody(const ForwardRequest &R, Function &Fwd,
              SmallPtrSetImpl<const Argument *> &Active,
              DenseMap<const Argument *, Value *> &ArgShadows,
              DenseMap<const Value *, Value *> &ArgTangents) {
  Function &Primal = R.Primal;
  // Keep target and floating-point attributes; drop what describes the
  // primal's signature or effects.
  Fwd.setAttributes(AttributeList::get(
      Fwd.getContext(), AttributeList::FunctionIndex,
      AttrBuilder(Fwd.getContext(), Primal.getAttributes().getFnAttrs())
          .removeAttribute(Attribute::Memory)
          .removeAttribute(Attribute::NoInline)
          .removeAttribute(Attribute::OptimizeNone)));
  Fwd.setSubprogram(Primal.getSubprogram());
  Primal.setSubprogram(nullptr);

  unsigned FwdArg = 0;
  for (Argument &A : Primal.args()) {
    Argument *New = Fwd.getArg(FwdArg++);
    New->setName(A.getName());
    A.replaceAllUsesWith(New);
    if (R.Activity.isActive(&A))
      Active.insert(New);
    if (Type *ByVal = Primal.getParamByValType(A.getArgNo()))
      New->addAttr(Attribute::getWithByValType(Fwd.getContext(), ByVal));
    if (!hasShadow(R.Activities[A.getArgNo()]))
      continue;
    Argument *Shadow = Fwd.getArg(FwdArg++);
    if (New->hasByValAttr())
      Shadow->addAttr(New->getAttribute(Attribute::ByVal));
    if (A.getType()->isPointerTy()) {
      Shadow->setName(A.getName() + ".shadow");
      ArgShadows[New] = Shadow;
    } else {
      Shadow->setName(A.getName() + ".tangent");
      ArgTangents[New] = Shadow;
    }
  }
  Fwd.splice(Fwd.end(), &Primal);
}

} // namespace

bool synthesizeForward(const ForwardRequest &R, Function &Into) {
  Function &Primal = R.Primal;
  DerivedCalls Calls(R);
  std::string Context = " (in the forward derivative of '" +
                        demangle(R.SourceName) + "' requested at " +
                        describeLocation(R.Site) + ")";
  bool Ok = checkDifferentiable(DifferentiabilityQuery{
      Primal, R.Activities, R.Activity, R.Types, R.SourceName, R.Site,
      DiffMode::Forward,
      [&](const CallBase &Call) { return Calls.handles(Call); }});
  Ok = Calls.checkCalls(Context) && Ok;
  if (!Ok) {
    Primal.eraseFromParent();
    return false;
  }

  SmallPtrSet<const Argument *, 8> ActiveArgs;
  DenseMap<const Argument *, Value *> ArgShadows;
  DenseMap<const Value *, Value *> ArgTangents;
  moveBody(R, Into, ActiveArgs, ArgShadows, ArgTangents);
  ForwardModeBuilder(R, Into, Calls, std::move(ActiveArgs), ArgShadows,
                     std::move(ArgTangents))
      .build();
  // Erased only now: the activity sets hold pointers to its arguments,
  // which must not be reused by new values while they are queried.
  Primal.eraseFromParent();
  Into.setLinkage(GlobalValue::InternalLinkage);

  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyFunction(Into, &OS)) {
    reportError(R.Site, "internal error: the generated forward derivative "
                        "of '" +
                            demangle(R.SourceName) + "' is not valid IR (" +
                            Broken + "); please report this");
    Into.deleteBody();
    Into.setLinkage(GlobalValue::ExternalLinkage);
    return false;
  }
  return true;
}

} // namespace adjoint
