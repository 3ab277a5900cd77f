//===- RuleExpr.cpp - Formulas that emit IR ---------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/RuleExpr.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {
namespace rules {

Expr Expr::constant(double C) const {
  return Expr(*B, ConstantFP::get(type(), C));
}

bool Expr::isConstant(double C) const {
  auto *K = dyn_cast_or_null<Constant>(V);
  if (K && K->getType()->isVectorTy())
    K = K->getSplatValue();
  auto *FP = dyn_cast_or_null<ConstantFP>(K);
  return FP && FP->isExactlyValue(C);
}

namespace {

/// `where(c, p, q)` with constant arms: multiplying it by something is
/// better routed than multiplied, e.g. adj * (c ? 1 : 0) is c ? adj : 0.
bool isConstantSelect(const Expr &E) {
  auto *S = dyn_cast_or_null<SelectInst>(E.value());
  return S && isa<Constant>(S->getTrueValue()) &&
         isa<Constant>(S->getFalseValue());
}

/// `1 / D`: multiplying by it is better done as a division by D, which is
/// both cheaper and correctly rounded.
Value *reciprocalOf(const Expr &E) {
  auto *Div = dyn_cast_or_null<BinaryOperator>(E.value());
  if (!Div || Div->getOpcode() != Instruction::FDiv ||
      !Expr(E.builder(), Div->getOperand(0)).isConstant(1.0))
    return nullptr;
  return Div->getOperand(1);
}

Expr distributeOverSelect(const Expr &Factor, const Expr &Select) {
  auto *S = cast<SelectInst>(Select.value());
  IRBuilderBase &B = Select.builder();
  Expr Cond(B, S->getCondition());
  Expr T = Factor * Expr(B, S->getTrueValue());
  Expr F = Factor * Expr(B, S->getFalseValue());
  // The select itself may now be dead; later cleanup removes it.
  return where(Cond, T, F);
}

/// Calls a C math function by its double name ("sinh", "atan2"), choosing
/// the float or long double variant by type. Half precision goes through
/// float, and vectors are computed lane by lane. All \p Args have one type.
Value *callLibm(IRBuilderBase &B, StringRef Name, ArrayRef<Value *> Args) {
  Type *Ty = Args.front()->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Value *Result = PoisonValue::get(VT);
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I) {
      SmallVector<Value *, 2> Lanes;
      for (Value *Arg : Args)
        Lanes.push_back(B.CreateExtractElement(Arg, I));
      Result = B.CreateInsertElement(Result, callLibm(B, Name, Lanes), I);
    }
    return Result;
  }
  if (Ty->isHalfTy() || Ty->isBFloatTy()) {
    SmallVector<Value *, 2> Wide;
    for (Value *Arg : Args)
      Wide.push_back(B.CreateFPExt(Arg, B.getFloatTy()));
    return B.CreateFPTrunc(callLibm(B, Name, Wide), Ty);
  }
  std::string Symbol = Name.str();
  if (Ty->isFloatTy())
    Symbol += 'f';
  else if (!Ty->isDoubleTy())
    Symbol += 'l';
  Module *M = B.GetInsertBlock()->getModule();
  SmallVector<Type *, 2> Params(Args.size(), Ty);
  FunctionCallee Callee =
      M->getOrInsertFunction(Symbol, FunctionType::get(Ty, Params, false));
  if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
    // Derivative code only needs the value; errno is irrelevant to it.
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
  }
  return B.CreateCall(Callee, Args);
}

/// Brings a scalar operand to the lane count of a vector one (the adjoint
/// of a reduction's result flows to every lane of its operand).
std::pair<Expr, Expr> broadcast(const Expr &A, const Expr &B) {
  auto *VA = dyn_cast<FixedVectorType>(A.type());
  auto *VB = dyn_cast<FixedVectorType>(B.type());
  if (VA && !VB)
    return {A, Expr(B.builder(), B.builder().CreateVectorSplat(
                                     VA->getNumElements(), B.value()))};
  if (VB && !VA)
    return {Expr(A.builder(), A.builder().CreateVectorSplat(
                                  VB->getNumElements(), A.value())),
            B};
  return {A, B};
}

} // namespace

Expr operator+(const Expr &LHS, const Expr &RHS) {
  auto [A, B] = broadcast(LHS, RHS);
  if (A.isConstant(0.0))
    return B;
  if (B.isConstant(0.0))
    return A;
  return Expr(A.builder(), A.builder().CreateFAdd(A.value(), B.value()));
}

Expr operator-(const Expr &LHS, const Expr &RHS) {
  auto [A, B] = broadcast(LHS, RHS);
  if (B.isConstant(0.0))
    return A;
  if (A.isConstant(0.0))
    return -B;
  return Expr(A.builder(), A.builder().CreateFSub(A.value(), B.value()));
}

Expr operator*(const Expr &LHS, const Expr &RHS) {
  auto [A, B] = broadcast(LHS, RHS);
  if (A.isConstant(1.0))
    return B;
  if (B.isConstant(1.0))
    return A;
  // Derivatives follow the convention that a zero partial contributes
  // nothing, even when the other factor is infinite.
  if (A.isConstant(0.0))
    return A;
  if (B.isConstant(0.0))
    return B;
  if (A.isConstant(-1.0))
    return -B;
  if (B.isConstant(-1.0))
    return -A;
  if (Value *D = reciprocalOf(B))
    return A / Expr(A.builder(), D);
  if (Value *D = reciprocalOf(A))
    return B / Expr(B.builder(), D);
  if (isConstantSelect(B))
    return distributeOverSelect(A, B);
  if (isConstantSelect(A))
    return distributeOverSelect(B, A);
  return Expr(A.builder(), A.builder().CreateFMul(A.value(), B.value()));
}

Expr operator/(const Expr &LHS, const Expr &RHS) {
  auto [A, B] = broadcast(LHS, RHS);
  if (B.isConstant(1.0))
    return A;
  return Expr(A.builder(), A.builder().CreateFDiv(A.value(), B.value()));
}

Expr operator-(const Expr &A) {
  return Expr(A.builder(), A.builder().CreateFNeg(A.value()));
}

Expr operator<(const Expr &A, const Expr &B) {
  return Expr(A.builder(), A.builder().CreateFCmpOLT(A.value(), B.value()));
}

Expr operator<=(const Expr &A, const Expr &B) {
  return Expr(A.builder(), A.builder().CreateFCmpOLE(A.value(), B.value()));
}

Expr operator==(const Expr &A, const Expr &B) {
  return Expr(A.builder(), A.builder().CreateFCmpOEQ(A.value(), B.value()));
}

Expr where(const Expr &Cond, const Expr &A, const Expr &B) {
  if (A.value() == B.value())
    return A;
  return Expr(Cond.builder(),
              Cond.builder().CreateSelect(Cond.value(), A.value(), B.value()));
}

static Expr unaryIntrinsic(Intrinsic::ID ID, const Expr &A) {
  return Expr(A.builder(), A.builder().CreateUnaryIntrinsic(ID, A.value()));
}

Expr sqrt(const Expr &A) { return unaryIntrinsic(Intrinsic::sqrt, A); }
Expr exp(const Expr &A) { return unaryIntrinsic(Intrinsic::exp, A); }
Expr log(const Expr &A) { return unaryIntrinsic(Intrinsic::log, A); }
Expr sin(const Expr &A) { return unaryIntrinsic(Intrinsic::sin, A); }
Expr cos(const Expr &A) { return unaryIntrinsic(Intrinsic::cos, A); }
Expr trunc(const Expr &A) { return unaryIntrinsic(Intrinsic::trunc, A); }

Expr sinh(const Expr &A) {
  return Expr(A.builder(), callLibm(A.builder(), "sinh", {A.value()}));
}

Expr cosh(const Expr &A) {
  return Expr(A.builder(), callLibm(A.builder(), "cosh", {A.value()}));
}

Expr atan2(const Expr &Y, const Expr &X) {
  return Expr(Y.builder(),
              callLibm(Y.builder(), "atan2", {Y.value(), X.value()}));
}

Expr pow(const Expr &LHS, const Expr &RHS) {
  if (RHS.isConstant(1.0))
    return LHS;
  if (RHS.isConstant(0.0))
    return LHS.constant(1.0);
  auto [A, B] = broadcast(LHS, RHS);
  return Expr(A.builder(), A.builder().CreateBinaryIntrinsic(
                               Intrinsic::pow, A.value(), B.value()));
}

Expr copysign(const Expr &Magnitude, const Expr &Sign) {
  return Expr(Magnitude.builder(),
              Magnitude.builder().CreateBinaryIntrinsic(
                  Intrinsic::copysign, Magnitude.value(), Sign.value()));
}

Expr productOfLanes(const Expr &A) {
  IRBuilderBase &B = A.builder();
  return Expr(B, B.CreateFMulReduce(ConstantFP::get(A.type()->getScalarType(),
                                                    1.0),
                                    A.value()));
}

Expr productOfOtherLanes(const Expr &A) {
  // Lane i is (product of lanes before i) * (product of lanes after i).
  IRBuilderBase &B = A.builder();
  unsigned N = cast<FixedVectorType>(A.type())->getNumElements();
  Value *One = ConstantFP::get(A.type()->getScalarType(), 1.0);
  SmallVector<Value *, 16> Lanes, Before(N, One), After(N, One);
  for (unsigned I = 0; I != N; ++I)
    Lanes.push_back(B.CreateExtractElement(A.value(), I));
  for (unsigned I = 1; I != N; ++I)
    Before[I] = B.CreateFMul(Before[I - 1], Lanes[I - 1]);
  for (unsigned I = N - 1; I-- != 0;)
    After[I] = B.CreateFMul(After[I + 1], Lanes[I + 1]);
  Value *Result = PoisonValue::get(A.type());
  for (unsigned I = 0; I != N; ++I)
    Result = B.CreateInsertElement(Result, B.CreateFMul(Before[I], After[I]),
                                   I);
  return Expr(B, Result);
}

Expr firstLaneEqualTo(const Expr &A, const Expr &S) {
  IRBuilderBase &B = A.builder();
  unsigned N = cast<FixedVectorType>(A.type())->getNumElements();
  Type *Elt = A.type()->getScalarType();
  Value *Found = B.getFalse();
  Value *Result = PoisonValue::get(A.type());
  for (unsigned I = 0; I != N; ++I) {
    Value *Hit = B.CreateAnd(
        B.CreateFCmpOEQ(B.CreateExtractElement(A.value(), I), S.value()),
        B.CreateNot(Found));
    Found = B.CreateOr(Found, Hit);
    Result = B.CreateInsertElement(
        Result,
        B.CreateSelect(Hit, ConstantFP::get(Elt, 1.0), ConstantFP::get(Elt, 0.0)),
        I);
  }
  return Expr(B, Result);
}

Expr toFloat(const Expr &Int, const Expr &Like) {
  // A scalar integer (powi's exponent of a vector) converts to a scalar,
  // which formulas broadcast.
  Type *To = Int.type()->isVectorTy() ? Like.type()
                                      : Like.type()->getScalarType();
  return Expr(Int.builder(), Int.builder().CreateSIToFP(Int.value(), To));
}

} // namespace rules
} // namespace adjoint
