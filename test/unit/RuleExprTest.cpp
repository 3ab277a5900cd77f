//===- RuleExprTest.cpp - Identity folding of derivative formulas ---------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Derivatives are sparse: most partials are 0, 1 or a routing select, and
// the formulas of DerivativeRules.def rely on Expr folding those identities
// instead of emitting arithmetic on them. These tests evaluate small formulas
// and look at the IR they leave behind.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/RuleExpr.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using namespace adjoint;
using namespace adjoint::rules;

namespace {

/// A function `f(double a, double b, i1 c, <4 x float> v, <4 x i1> vc)` with
/// an empty entry block that the formulas are emitted into.
class RuleExprTest : public ::testing::Test {
protected:
  RuleExprTest() : M("rule-expr", Ctx), B(Ctx) {
    Type *D = Type::getDoubleTy(Ctx);
    auto *V4F = FixedVectorType::get(Type::getFloatTy(Ctx), 4);
    auto *V4I1 = FixedVectorType::get(Type::getInt1Ty(Ctx), 4);
    auto *FT = FunctionType::get(Type::getVoidTy(Ctx),
                                 {D, D, Type::getInt1Ty(Ctx), V4F, V4I1},
                                 /*isVarArg=*/false);
    F = Function::Create(FT, Function::ExternalLinkage, "f", M);
    B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", F));
    A = Expr(B, F->getArg(0));
    Bv = Expr(B, F->getArg(1));
    C = Expr(B, F->getArg(2));
    V = Expr(B, F->getArg(3));
    VC = Expr(B, F->getArg(4));
  }

  /// How many instructions were emitted so far.
  size_t emitted() const { return B.GetInsertBlock()->size(); }

  /// How many emitted instructions have opcode \p Opcode.
  size_t emitted(unsigned Opcode) const {
    size_t N = 0;
    for (const Instruction &I : *B.GetInsertBlock())
      N += I.getOpcode() == Opcode;
    return N;
  }

  /// Names of the functions the emitted code calls, in order.
  std::vector<std::string> callees() const {
    std::vector<std::string> Names;
    for (const Instruction &I : *B.GetInsertBlock())
      if (const auto *Call = dyn_cast<CallInst>(&I))
        Names.push_back(Call->getCalledFunction()->getName().str());
    return Names;
  }

  /// An argument of a new type, for the formulas that depend on the type.
  Expr argumentOfType(Type *T) {
    Function *G = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), {T}, /*isVarArg=*/false),
        Function::ExternalLinkage, "g", M);
    B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", G));
    return Expr(B, G->getArg(0));
  }

  LLVMContext Ctx;
  Module M;
  IRBuilder<> B;
  Function *F = nullptr;
  Expr A, Bv, C, V, VC;
};

bool isFPConstant(const Value *V, double C) {
  const auto *K = dyn_cast<Constant>(V);
  if (K && K->getType()->isVectorTy())
    K = K->getSplatValue();
  const auto *FP = dyn_cast_or_null<ConstantFP>(K);
  return FP && FP->isExactlyValue(C);
}

TEST_F(RuleExprTest, MultiplyingByOneEmitsNothing) {
  EXPECT_EQ((A * A.constant(1.0)).value(), A.value());
  EXPECT_EQ((A.constant(1.0) * A).value(), A.value());
  EXPECT_EQ((A * 1.0).value(), A.value());
  EXPECT_EQ((A / 1.0).value(), A.value());
  EXPECT_EQ(emitted(), 0u);
}

TEST_F(RuleExprTest, MultiplyingByZeroIsTheConstantZero) {
  // Even though A might be infinite: a zero partial contributes nothing.
  for (Expr E : {A * 0.0, 0.0 * A, A * A.constant(0.0)}) {
    ASSERT_FALSE(E.isNone());
    EXPECT_TRUE(isa<Constant>(E.value()));
    EXPECT_TRUE(E.isConstant(0.0));
    EXPECT_EQ(E.type(), A.type());
  }
  EXPECT_EQ(emitted(), 0u);
}

TEST_F(RuleExprTest, AddingZeroEmitsNothing) {
  EXPECT_EQ((A + 0.0).value(), A.value());
  EXPECT_EQ((0.0 + A).value(), A.value());
  EXPECT_EQ((A - 0.0).value(), A.value());
  EXPECT_EQ(emitted(), 0u);
}

TEST_F(RuleExprTest, ZeroMinusAndMinusOneTimesAreNegations) {
  Expr Neg = 0.0 - A;
  auto *I = dyn_cast<UnaryOperator>(Neg.value());
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->getOpcode(), Instruction::FNeg);
  EXPECT_EQ(I->getOperand(0), A.value());

  for (Expr E : {A * -1.0, -1.0 * A}) {
    auto *N = dyn_cast<UnaryOperator>(E.value());
    ASSERT_NE(N, nullptr);
    EXPECT_EQ(N->getOpcode(), Instruction::FNeg);
    EXPECT_EQ(N->getOperand(0), A.value());
  }
  EXPECT_EQ(emitted(Instruction::FMul), 0u);
  EXPECT_EQ(emitted(Instruction::FSub), 0u);
}

TEST_F(RuleExprTest, GeneralOperandsEmitArithmetic) {
  auto *Mul = dyn_cast<BinaryOperator>((A * Bv).value());
  ASSERT_NE(Mul, nullptr);
  EXPECT_EQ(Mul->getOpcode(), Instruction::FMul);
  EXPECT_EQ(Mul->getOperand(0), A.value());
  EXPECT_EQ(Mul->getOperand(1), Bv.value());

  auto *Add = dyn_cast<BinaryOperator>((A + 2.0).value());
  ASSERT_NE(Add, nullptr);
  EXPECT_EQ(Add->getOpcode(), Instruction::FAdd);
  EXPECT_TRUE(isFPConstant(Add->getOperand(1), 2.0));
  EXPECT_EQ(emitted(), 2u);
}

TEST_F(RuleExprTest, MultiplyingByAReciprocalDivides) {
  Expr Recip = 1.0 / Bv;
  for (Expr E : {A * Recip, Recip * A}) {
    auto *Div = dyn_cast<BinaryOperator>(E.value());
    ASSERT_NE(Div, nullptr);
    EXPECT_EQ(Div->getOpcode(), Instruction::FDiv);
    EXPECT_EQ(Div->getOperand(0), A.value());
    EXPECT_EQ(Div->getOperand(1), Bv.value());
  }
  EXPECT_EQ(emitted(Instruction::FMul), 0u);
}

TEST_F(RuleExprTest, RoutingSelectDistributesOverAProduct) {
  // adj * (c ? 1 : 0) is c ? adj : 0: routed, not multiplied.
  Expr Route = where(C, A.constant(1.0), A.constant(0.0));
  for (Expr E : {Bv * Route, Route * Bv}) {
    auto *Sel = dyn_cast<SelectInst>(E.value());
    ASSERT_NE(Sel, nullptr);
    EXPECT_EQ(Sel->getCondition(), C.value());
    EXPECT_EQ(Sel->getTrueValue(), Bv.value());
    EXPECT_TRUE(isFPConstant(Sel->getFalseValue(), 0.0));
  }
  EXPECT_EQ(emitted(Instruction::FMul), 0u);

  // Other constant arms are multiplied into each arm, still folding.
  Expr Signs = where(C, A.constant(2.0), A.constant(-1.0));
  auto *Sel = dyn_cast<SelectInst>((Bv * Signs).value());
  ASSERT_NE(Sel, nullptr);
  auto *T = dyn_cast<BinaryOperator>(Sel->getTrueValue());
  ASSERT_NE(T, nullptr);
  EXPECT_EQ(T->getOpcode(), Instruction::FMul);
  auto *Fl = dyn_cast<UnaryOperator>(Sel->getFalseValue());
  ASSERT_NE(Fl, nullptr);
  EXPECT_EQ(Fl->getOpcode(), Instruction::FNeg);
  EXPECT_EQ(Fl->getOperand(0), Bv.value());
}

TEST_F(RuleExprTest, SelectBetweenValuesIsMultiplied) {
  Expr Pick = where(C, A, Bv);
  auto *Mul = dyn_cast<BinaryOperator>((Pick * A).value());
  ASSERT_NE(Mul, nullptr);
  EXPECT_EQ(Mul->getOpcode(), Instruction::FMul);
  EXPECT_EQ(emitted(Instruction::Select), 1u);
}

TEST_F(RuleExprTest, SelectOfEqualArmsIsTheArm) {
  EXPECT_EQ(where(C, A, A).value(), A.value());
  EXPECT_EQ(emitted(), 0u);
}

TEST_F(RuleExprTest, VectorConstantsAreSplats) {
  Expr Two = V.constant(2.0);
  EXPECT_EQ(Two.type(), V.type());
  auto *K = dyn_cast<Constant>(Two.value());
  ASSERT_NE(K, nullptr);
  EXPECT_TRUE(isFPConstant(K->getSplatValue(), 2.0));
  EXPECT_TRUE(Two.isConstant(2.0));
  EXPECT_FALSE(Two.isConstant(1.0));
  EXPECT_FALSE(V.isConstant(2.0));

  EXPECT_EQ((V * 1.0).value(), V.value());
  EXPECT_EQ((V + 0.0).value(), V.value());
  Expr Zero = V * 0.0;
  EXPECT_EQ(Zero.type(), V.type());
  EXPECT_TRUE(Zero.isConstant(0.0));
  EXPECT_EQ(emitted(), 0u);

  // Routing works lane by lane.
  auto *Sel = dyn_cast<SelectInst>(
      (V * where(VC, V.constant(1.0), V.constant(0.0))).value());
  ASSERT_NE(Sel, nullptr);
  EXPECT_EQ(Sel->getTrueValue(), V.value());
  EXPECT_TRUE(isFPConstant(Sel->getFalseValue(), 0.0));
  EXPECT_EQ(emitted(Instruction::FMul), 0u);
}

TEST_F(RuleExprTest, PowersOfZeroAndOneFold) {
  EXPECT_EQ(pow(A, A.constant(1.0)).value(), A.value());
  EXPECT_TRUE(pow(A, A.constant(0.0)).isConstant(1.0));
  EXPECT_EQ(emitted(), 0u);
  auto *Pow = dyn_cast<IntrinsicInst>(pow(A, Bv).value());
  ASSERT_NE(Pow, nullptr);
  EXPECT_EQ(Pow->getIntrinsicID(), Intrinsic::pow);
}

TEST_F(RuleExprTest, ElementaryFunctionsUseIntrinsics) {
  struct {
    Expr (*Fn)(const Expr &);
    Intrinsic::ID ID;
  } const Cases[] = {{sqrt, Intrinsic::sqrt}, {exp, Intrinsic::exp},
                     {log, Intrinsic::log},   {sin, Intrinsic::sin},
                     {cos, Intrinsic::cos},   {trunc, Intrinsic::trunc}};
  for (const auto &Case : Cases) {
    auto *I = dyn_cast<IntrinsicInst>(Case.Fn(A).value());
    ASSERT_NE(I, nullptr);
    EXPECT_EQ(I->getIntrinsicID(), Case.ID);
    EXPECT_EQ(I->getType(), A.type());
    EXPECT_EQ(I->getArgOperand(0), A.value());
  }
}

TEST_F(RuleExprTest, LibmCallsFollowTheType) {
  // sinh and cosh have no intrinsic: the C function of matching precision.
  sinh(argumentOfType(Type::getFloatTy(Ctx)));
  EXPECT_EQ(callees(), std::vector<std::string>{"sinhf"});
  cosh(argumentOfType(Type::getDoubleTy(Ctx)));
  EXPECT_EQ(callees(), std::vector<std::string>{"cosh"});
  sinh(argumentOfType(Type::getX86_FP80Ty(Ctx)));
  EXPECT_EQ(callees(), std::vector<std::string>{"sinhl"});

  // Half precision computes in float and rounds back.
  Expr H = sinh(argumentOfType(Type::getHalfTy(Ctx)));
  EXPECT_EQ(callees(), std::vector<std::string>{"sinhf"});
  EXPECT_TRUE(H.type()->isHalfTy());
  EXPECT_TRUE(isa<FPTruncInst>(H.value()));

  // Vectors go lane by lane.
  Expr Vec =
      cosh(argumentOfType(FixedVectorType::get(Type::getDoubleTy(Ctx), 2)));
  EXPECT_EQ(callees(), (std::vector<std::string>{"cosh", "cosh"}));
  EXPECT_EQ(Vec.type(), FixedVectorType::get(Type::getDoubleTy(Ctx), 2));
  EXPECT_EQ(emitted(Instruction::InsertElement), 2u);
}

TEST_F(RuleExprTest, ComparisonsAndConversions) {
  auto *Lt = dyn_cast<FCmpInst>((A < Bv).value());
  ASSERT_NE(Lt, nullptr);
  EXPECT_EQ(Lt->getPredicate(), FCmpInst::FCMP_OLT);
  auto *Le = dyn_cast<FCmpInst>((A <= Bv).value());
  ASSERT_NE(Le, nullptr);
  EXPECT_EQ(Le->getPredicate(), FCmpInst::FCMP_OLE);
  auto *Eq = dyn_cast<FCmpInst>((A == Bv).value());
  ASSERT_NE(Eq, nullptr);
  EXPECT_EQ(Eq->getPredicate(), FCmpInst::FCMP_OEQ);

  Expr N = argumentOfType(Type::getInt32Ty(Ctx));
  auto *Conv = dyn_cast<SIToFPInst>(toFloat(N, A).value());
  ASSERT_NE(Conv, nullptr);
  EXPECT_TRUE(Conv->getType()->isDoubleTy());
}

TEST_F(RuleExprTest, CopysignIsTheIntrinsic) {
  auto *I = dyn_cast<IntrinsicInst>(copysign(A.constant(1.0), Bv).value());
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->getIntrinsicID(), Intrinsic::copysign);
  EXPECT_TRUE(isFPConstant(I->getArgOperand(0), 1.0));
  EXPECT_EQ(I->getArgOperand(1), Bv.value());
}

} // namespace
