//===- CallLowering.cpp - Hand gradients back to the caller -----------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The caller chooses the return type of __enzyme_autodiff. After the C ABI
// has lowered it, a `struct { double dx, dy; }` arrives as `{double,
// double}`, a `struct { float a, b; }` as `<2 x float>`, a struct of three
// doubles through an sret pointer. All of them are matched leaf by leaf
// against the gradients of the enzyme_out arguments.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Frontend/AutodiffRequest.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Appends the scalar leaves of \p V (see flattenLeaves).
void extractLeaves(IRBuilderBase &B, Value *V, SmallVectorImpl<Value *> &Out) {
  Type *T = V->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      Out.push_back(B.CreateExtractElement(V, I));
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    for (unsigned I = 0, E = AT->getNumElements(); I != E; ++I)
      extractLeaves(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *ST = dyn_cast<StructType>(T)) {
    for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I)
      extractLeaves(B, B.CreateExtractValue(V, I), Out);
  } else if (!T->isVoidTy()) {
    Out.push_back(V);
  }
}

/// Builds a value of type \p T from leaves, converting each leaf's
/// floating-point precision as needed.
Value *assemble(IRBuilderBase &B, Type *T, ArrayRef<Value *> &Leaves) {
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Value *V = PoisonValue::get(VT);
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      V = B.CreateInsertElement(V, assemble(B, VT->getElementType(), Leaves),
                                I);
    return V;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    Value *V = PoisonValue::get(T);
    for (unsigned I = 0, E = AT->getNumElements(); I != E; ++I)
      V = B.CreateInsertValue(V, assemble(B, AT->getElementType(), Leaves), I);
    return V;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    Value *V = PoisonValue::get(T);
    for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I)
      V = B.CreateInsertValue(V, assemble(B, ST->getElementType(I), Leaves),
                              I);
    return V;
  }
  if (Leaves.empty()) // ABI padding lanes, e.g. the 4th of <4 x half>.
    return Constant::getNullValue(T);
  Value *Leaf = Leaves.front();
  Leaves = Leaves.drop_front();
  return B.CreateFPCast(Leaf, T);
}

/// Do the gradients \p From fit the declared return type \p Expected? Leaf
/// by leaf, except that the ABI may round a vector of N lanes up to the
/// next power of two (struct {_Float16 a, b, c;} comes back as <4 x half>).
bool leavesConvertible(ArrayRef<Type *> From, Type *Expected) {
  SmallVector<Type *, 8> To;
  flattenLeaves(Expected, To);
  bool Padded = isa<FixedVectorType>(Expected) && From.size() < To.size() &&
                To.size() == PowerOf2Ceil(From.size());
  if (From.size() != To.size() && !Padded)
    return false;
  for (auto [F, T] : zip(From, To))
    if (!F->isFloatingPointTy() || !T->isFloatingPointTy())
      return false;
  return true;
}

/// Optimization may rewrite a call through a cast function pointer to
/// return the declared type and reinterpret the result: `struct { float a,
/// b; }` then arrives as a double bitcast to <2 x float>. Returns that type
/// when every use is such a bitcast.
Type *reinterpretedResultType(const CallBase &Call) {
  Type *To = nullptr;
  for (const User *U : Call.users()) {
    const auto *Cast = dyn_cast<BitCastInst>(U);
    if (!Cast || (To && Cast->getType() != To))
      return nullptr;
    To = Cast->getType();
  }
  return To;
}

/// Erases the API call, keeping the CFG intact when it was an invoke.
void eraseCall(CallBase &Call) {
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call)) {
    BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
  }
  Call.eraseFromParent();
}


/// The declared return type \p Expected cannot hold the \p NumLeaves values
/// of type \p Returned that the generated function returns.
void reportMismatch(const AutodiffRequest &R, Type *Expected, Type *Returned,
                    size_t NumLeaves) {
  std::string Has =
      NumLeaves ? " of type " + describeType(Returned) : std::string();
  std::string Fn = demangle(R.Fn->getName());
  std::string Declared =
      (entryPointName(R.Mode) + " is declared to return " +
       describeType(Expected))
          .str();
  if (R.Mode == DiffMode::Forward) {
    reportError(*R.Call,
                Declared + " but the forward derivative of '" + Fn +
                    "' returns " + Twine(NumLeaves) + " value(s)" + Has +
                    " (the tangent of its floating-point return value); "
                    "declare it to return the type '" + Fn + "' returns");
    return;
  }
  reportError(*R.Call,
              Declared + " but '" + Fn + "' has " + Twine(NumLeaves) +
                  " enzyme_out gradient value(s)" + Has +
                  "; declare a return type with one floating-point field "
                  "per enzyme_out argument, in argument order");
}

} // namespace

/// The arguments of \p R, each shadow after its value.
static SmallVector<Value *, 8> argumentsWithShadows(const AutodiffRequest &R) {
  SmallVector<Value *, 8> Args;
  for (const RequestArg &A : R.Args) {
    Args.push_back(A.Primal);
    if (hasShadow(A.Activity))
      Args.push_back(A.Shadow);
  }
  return Args;
}

bool lowerAutodiffCall(const AutodiffRequest &R, Function &Gradient,
                       ArrayRef<Value *> Trailing) {
  CallBase &Call = *R.Call;
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args = argumentsWithShadows(R);
  append_range(Args, Trailing);
  CallInst *NewCall = B.CreateCall(&Gradient, Args);
  NewCall->setDebugLoc(Call.getDebugLoc());

  bool ThroughSRet = returnsThroughBuffer(Call);
  Type *Expected =
      ThroughSRet ? Call.getParamStructRetType(0) : Call.getType();
  SmallVector<Type *, 8> GradientLeaves;
  flattenLeaves(Gradient.getReturnType(), GradientLeaves);
  Type *Reinterpreted = nullptr;
  if (!ThroughSRet && !leavesConvertible(GradientLeaves, Expected))
    if ((Reinterpreted = reinterpretedResultType(Call)))
      Expected = Reinterpreted;

  bool ResultUsed = ThroughSRet || !Call.use_empty();
  if (ResultUsed && !leavesConvertible(GradientLeaves, Expected)) {
    reportMismatch(R, Expected, Gradient.getReturnType(),
                   GradientLeaves.size());
    NewCall->eraseFromParent();
    return false;
  }

  if (ResultUsed) {
    SmallVector<Value *, 8> Leaves;
    extractLeaves(B, NewCall, Leaves);
    ArrayRef<Value *> Remaining = Leaves;
    Value *Result = assemble(B, Expected, Remaining);
    if (ThroughSRet) {
      B.CreateStore(Result, Call.getArgOperand(0));
    } else if (Reinterpreted) {
      for (User *Cast : make_early_inc_range(Call.users())) {
        Cast->replaceAllUsesWith(Result);
        cast<Instruction>(Cast)->eraseFromParent();
      }
    } else {
      Call.replaceAllUsesWith(Result);
    }
  }
  eraseCall(Call);
  return true;
}

bool lowerAugmentedCall(const AutodiffRequest &R, Function &Augmented) {
  CallBase &Call = *R.Call;
  // What the caller receives, in order: the tape (unless a buffer holds
  // it), the result, its shadow.
  auto *AugTy = cast<StructType>(Augmented.getReturnType());
  ArrayRef<Type *> Received = AugTy->elements();
  if (R.TapeBuffer)
    Received = Received.drop_front();
  Type *Expected = Call.getType();
  auto *ExpectedStruct = dyn_cast<StructType>(Expected);
  bool Fits =
      Call.use_empty() || Expected->isVoidTy() ||
      (Received.size() == 1 && Received.front() == Expected) ||
      (ExpectedStruct && ExpectedStruct->elements() == Received);
  if (!Fits) {
    reportError(Call, entryPointName(R.Mode) + " is declared to return " +
                          describeType(Expected) + " but the augmented "
                          "forward of '" + demangle(R.Fn->getName()) +
                          "' returns " +
                          describeType(StructType::get(Call.getContext(),
                                                       Received)) +
                          " (the tape, unless enzyme_tape gives its buffer; "
                          "then the result, if any, and its shadow, if a "
                          "pointer); declare that type");
    return false;
  }

  IRBuilder<> B(&Call);
  CallInst *NewCall = B.CreateCall(&Augmented, argumentsWithShadows(R));
  NewCall->setDebugLoc(Call.getDebugLoc());
  SmallVector<Value *, 3> Results;
  for (unsigned I = 0, E = AugTy->getNumElements(); I != E; ++I)
    Results.push_back(B.CreateExtractValue(NewCall, I));
  if (R.TapeBuffer) {
    B.CreateStore(Results.front(), R.TapeBuffer);
    Results.erase(Results.begin());
  }
  if (!Call.use_empty() && !Expected->isVoidTy()) {
    Value *Result = Results.front();
    if (ExpectedStruct) {
      Result = PoisonValue::get(ExpectedStruct);
      for (auto [I, V] : enumerate(Results))
        Result = B.CreateInsertValue(Result, V, I);
    }
    Call.replaceAllUsesWith(Result);
  }
  eraseCall(Call);
  return true;
}

bool lowerReverseCall(const AutodiffRequest &R, Function &Reverse) {
  SmallVector<Value *, 2> Trailing;
  if (R.ReturnAdjoint)
    Trailing.push_back(R.ReturnAdjoint);
  if (R.TapeBuffer) {
    IRBuilder<> B(R.Call);
    Trailing.push_back(B.CreateLoad(B.getPtrTy(), R.TapeBuffer, "tape"));
  } else {
    Trailing.push_back(R.Call->getArgOperand(*R.TapeOperand));
  }
  return lowerAutodiffCall(R, Reverse, Trailing);
}

void lowerTapeSizeCall(const AutodiffRequest &R) {
  CallBase &Call = *R.Call;
  if (Call.getType()->isIntegerTy())
    Call.replaceAllUsesWith(ConstantInt::get(Call.getType(), 8));
  else if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(PoisonValue::get(Call.getType()));
  eraseCall(Call);
}

void discardAutodiffCall(CallBase &Call) {
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Constant::getNullValue(Call.getType()));
  eraseCall(Call);
}

} // namespace adjoint
