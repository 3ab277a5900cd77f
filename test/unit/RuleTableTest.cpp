//===- RuleTableTest.cpp - Every derivative rule against libm -------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Checks the formulas of DerivativeRules.def numerically. For each rule and
// each floating-point type, a small function applies the primitive (the
// instruction, the C library call or the LLVM intrinsic) and stores the
// partials that emitPartial produces; ORC JIT-compiles it, and the values
// are compared against central differences of the C library's long double
// function. The reference never goes through the table, so a wrong formula,
// constant or operand order fails here.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/DerivativeRules.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <math.h>
#include <ostream>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace adjoint;

namespace {

using LD = long double;

/// A primitive evaluated in long double by the C library: the reference.
using RefFn = LD (*)(LD, LD, LD);

/// The compiled check: out[0..2] receive the partials, out[3] the primal
/// result, all widened to long double.
using CheckFn = void (*)(LD *Out, LD A0, LD A1, LD A2);

enum class Prec { Float, Double, LongDouble };

const char *precName(Prec P) {
  switch (P) {
  case Prec::Float:
    return "float";
  case Prec::Double:
    return "double";
  case Prec::LongDouble:
    return "x86_fp80";
  }
  return "?";
}

Type *precType(LLVMContext &Ctx, Prec P) {
  switch (P) {
  case Prec::Float:
    return Type::getFloatTy(Ctx);
  case Prec::Double:
    return Type::getDoubleTy(Ctx);
  case Prec::LongDouble:
    return Type::getX86_FP80Ty(Ctx);
  }
  return nullptr;
}

/// The value the compiled code sees when handed \p V in precision \p P.
LD roundTo(LD V, Prec P) {
  switch (P) {
  case Prec::Float:
    return static_cast<float>(V);
  case Prec::Double:
    return static_cast<double>(V);
  case Prec::LongDouble:
    return V;
  }
  return V;
}

/// How far a partial may be from the reference, relative to
/// max(1, |reference|). Float formulas round each step to 24 bits (the worst
/// case here is about 1e-7); double and long double ones are limited by the
/// reference's own error (at most about 5e-13, for asin near 1). Both leave
/// a wide margin and still catch a constant wrong in its tenth digit.
LD tolerance(Prec P) { return P == Prec::Float ? 4e-6L : 1e-11L; }

struct Point {
  LD X, Y, Z;
};

/// Properties of a rule that decide how it is exercised.
enum Traits : unsigned {
  NoTraits = 0,
  /// The C library has `name`, `namef` and `namel`.
  HasLibm = 1 << 0,
  /// Piecewise constant: partials must be exactly zero between the jumps.
  ZeroDerivative = 1 << 1,
  /// Operand 1 is an i32 (powi's exponent) and takes no derivative.
  IntOperand1 = 1 << 2,
  /// Operand 0 is an i1 condition and takes no derivative.
  CondOperand0 = 1 << 3,
  /// LLVM 19's x86 backend cannot select the intrinsic on x86_fp80
  /// (llvm.minimum.f80 aborts instruction selection), so only the libm
  /// form is compiled in long double.
  NoLongDoubleIntrinsic = 1 << 4,
};

/// Source and result precision of one compiled variant. They differ only
/// for the conversions.
struct TypePair {
  Prec Src, Dst;
};

/// How one rule of the table is checked.
struct RuleCheck {
  const char *Name; ///< As spelled in the table.
  RefFn Ref;
  std::vector<Point> Points; ///< Away from singularities and jumps.
  unsigned Flags = NoTraits;
  /// Empty: the three precisions, each to itself.
  std::vector<TypePair> Types = {};
};

// Names the parameter in gtest's messages instead of dumping its bytes.
void PrintTo(const RuleCheck &C, std::ostream *OS) { *OS << C.Name; }

std::string printPoint(const Point &P) {
  return "(" + std::to_string(static_cast<double>(P.X)) + ", " +
         std::to_string(static_cast<double>(P.Y)) + ", " +
         std::to_string(static_cast<double>(P.Z)) + ")";
}

// Points reused by several rules.
const std::vector<Point> BinaryPoints = {
    {0.7L, -1.3L, 0}, {2.5L, 0.4L, 0}, {-3.1L, 1.9L, 0}};
// x/y stays away from integers, where trunc(x/y) jumps.
const std::vector<Point> RemainderPoints = {
    {5.3L, 1.2L, 0}, {-7.4L, 2.5L, 0}, {3.3L, -0.7L, 0}};
// Away from integers and from the halfway points round() breaks ties at.
const std::vector<Point> StepPoints = {
    {0.3L, 0, 0}, {1.7L, 0, 0}, {-2.2L, 0, 0}, {3.9L, 0, 0}};
const std::vector<Point> MinMaxPoints = {
    {1.0L, 2.0L, 0}, {3.0L, -1.0L, 0}, {-0.5L, -0.7L, 0}};

/// The whole table, as the C library computes it. Every rule with a
/// floating-point result must appear here (see EveryRuleIsChecked).
const std::vector<RuleCheck> &ruleChecks() {
  // One rule per entry reads better than one field per line.
  // clang-format off
  static const std::vector<RuleCheck> Checks = {
      // Instructions.
      {"FAdd", [](LD X, LD Y, LD) { return X + Y; }, BinaryPoints},
      {"FSub", [](LD X, LD Y, LD) { return X - Y; }, BinaryPoints},
      {"FMul", [](LD X, LD Y, LD) { return X * Y; }, BinaryPoints},
      {"FDiv", [](LD X, LD Y, LD) { return X / Y; }, BinaryPoints},
      {"FRem", [](LD X, LD Y, LD) { return std::fmod(X, Y); },
       RemainderPoints},
      {"FNeg", [](LD X, LD, LD) { return -X; },
       {{0.7L, 0, 0}, {-2.3L, 0, 0}}},
      {"FPExt",
       [](LD X, LD, LD) { return X; },
       {{0.7L, 0, 0}, {-2.3L, 0, 0}, {1.0e3L, 0, 0}},
       NoTraits,
       {{Prec::Float, Prec::Double},
        {Prec::Float, Prec::LongDouble},
        {Prec::Double, Prec::LongDouble}}},
      {"FPTrunc",
       [](LD X, LD, LD) { return X; },
       {{0.7L, 0, 0}, {-2.3L, 0, 0}, {1.0e3L, 0, 0}},
       NoTraits,
       {{Prec::Double, Prec::Float},
        {Prec::LongDouble, Prec::Float},
        {Prec::LongDouble, Prec::Double}}},
      {"Freeze", [](LD X, LD, LD) { return X; },
       {{0.7L, 0, 0}, {-2.3L, 0, 0}}},
      {"Select", [](LD C, LD Y, LD Z) { return C != 0 ? Y : Z; },
       {{1, 0.7L, -1.3L}, {0, 0.7L, -1.3L}, {1, -2.5L, 4.0L}},
       CondOperand0},

      // Powers and roots.
      {"sqrt", [](LD X, LD, LD) { return std::sqrt(X); },
       {{0.25L, 0, 0}, {2.0L, 0, 0}, {9.5L, 0, 0}}, HasLibm},
      {"cbrt", [](LD X, LD, LD) { return std::cbrt(X); },
       {{0.3L, 0, 0}, {2.0L, 0, 0}, {-5.0L, 0, 0}}, HasLibm},
      {"pow", [](LD X, LD Y, LD) { return std::pow(X, Y); },
       {{1.5L, 2.3L, 0}, {0.7L, -1.2L, 0}, {3.0L, 0.5L, 0}}, HasLibm},
      // No C function: only llvm.powi.
      {"powi", [](LD X, LD N, LD) { return std::pow(X, N); },
       {{1.5L, 3, 0}, {-0.8L, 4, 0}, {2.2L, -2, 0}}, IntOperand1},
      {"hypot", [](LD X, LD Y, LD) { return std::hypot(X, Y); },
       {{3.0L, 4.0L, 0}, {-1.2L, 0.5L, 0}, {0.3L, -2.0L, 0}}, HasLibm},

      // Exponentials and logarithms.
      {"exp", [](LD X, LD, LD) { return std::exp(X); },
       {{-1.5L, 0, 0}, {0.3L, 0, 0}, {3.0L, 0, 0}}, HasLibm},
      {"exp2", [](LD X, LD, LD) { return std::exp2(X); },
       {{-1.5L, 0, 0}, {0.3L, 0, 0}, {3.0L, 0, 0}}, HasLibm},
      {"expm1", [](LD X, LD, LD) { return std::expm1(X); },
       {{-1.5L, 0, 0}, {1.0e-3L, 0, 0}, {2.0L, 0, 0}}, HasLibm},
      {"log", [](LD X, LD, LD) { return std::log(X); },
       {{0.2L, 0, 0}, {1.5L, 0, 0}, {30.0L, 0, 0}}, HasLibm},
      {"log2", [](LD X, LD, LD) { return std::log2(X); },
       {{0.2L, 0, 0}, {1.5L, 0, 0}, {30.0L, 0, 0}}, HasLibm},
      {"log10", [](LD X, LD, LD) { return std::log10(X); },
       {{0.2L, 0, 0}, {1.5L, 0, 0}, {30.0L, 0, 0}}, HasLibm},
      {"log1p", [](LD X, LD, LD) { return std::log1p(X); },
       {{-0.5L, 0, 0}, {0.01L, 0, 0}, {4.0L, 0, 0}}, HasLibm},

      // Trigonometric functions.
      {"sin", [](LD X, LD, LD) { return std::sin(X); },
       {{-1.2L, 0, 0}, {0.4L, 0, 0}, {2.5L, 0, 0}}, HasLibm},
      {"cos", [](LD X, LD, LD) { return std::cos(X); },
       {{-1.2L, 0, 0}, {0.4L, 0, 0}, {2.5L, 0, 0}}, HasLibm},
      {"tan", [](LD X, LD, LD) { return std::tan(X); },
       {{-1.2L, 0, 0}, {0.4L, 0, 0}, {2.5L, 0, 0}}, HasLibm},
      {"asin", [](LD X, LD, LD) { return std::asin(X); },
       {{-0.7L, 0, 0}, {0.1L, 0, 0}, {0.9L, 0, 0}}, HasLibm},
      {"acos", [](LD X, LD, LD) { return std::acos(X); },
       {{-0.7L, 0, 0}, {0.1L, 0, 0}, {0.9L, 0, 0}}, HasLibm},
      {"atan", [](LD X, LD, LD) { return std::atan(X); },
       {{-3.0L, 0, 0}, {0.2L, 0, 0}, {5.0L, 0, 0}}, HasLibm},
      // C's atan2(y, x): operand 0 is the ordinate.
      {"atan2", [](LD Y, LD X, LD) { return std::atan2(Y, X); },
       {{0.5L, 1.5L, 0}, {-1.0L, -0.3L, 0}, {2.0L, -1.0L, 0}}, HasLibm},

      // Hyperbolic functions.
      {"sinh", [](LD X, LD, LD) { return std::sinh(X); },
       {{-2.0L, 0, 0}, {0.3L, 0, 0}, {1.5L, 0, 0}}, HasLibm},
      {"cosh", [](LD X, LD, LD) { return std::cosh(X); },
       {{-2.0L, 0, 0}, {0.3L, 0, 0}, {1.5L, 0, 0}}, HasLibm},
      {"tanh", [](LD X, LD, LD) { return std::tanh(X); },
       {{-2.0L, 0, 0}, {0.3L, 0, 0}, {1.5L, 0, 0}}, HasLibm},
      {"asinh", [](LD X, LD, LD) { return std::asinh(X); },
       {{-3.0L, 0, 0}, {0.2L, 0, 0}, {4.0L, 0, 0}}, HasLibm},
      {"acosh", [](LD X, LD, LD) { return std::acosh(X); },
       {{1.2L, 0, 0}, {2.5L, 0, 0}, {10.0L, 0, 0}}, HasLibm},
      {"atanh", [](LD X, LD, LD) { return std::atanh(X); },
       {{-0.8L, 0, 0}, {0.1L, 0, 0}, {0.6L, 0, 0}}, HasLibm},

      // Error functions.
      {"erf", [](LD X, LD, LD) { return std::erf(X); },
       {{-1.3L, 0, 0}, {0.2L, 0, 0}, {2.0L, 0, 0}}, HasLibm},
      {"erfc", [](LD X, LD, LD) { return std::erfc(X); },
       {{-1.3L, 0, 0}, {0.2L, 0, 0}, {2.0L, 0, 0}}, HasLibm},

      // Sign, magnitude, min/max, fused multiply-add.
      {"fabs", [](LD X, LD, LD) { return std::fabs(X); },
       {{-2.5L, 0, 0}, {0.7L, 0, 0}}, HasLibm},
      {"copysign", [](LD X, LD Y, LD) { return std::copysign(X, Y); },
       {{1.5L, -2.0L, 0}, {-0.7L, 3.0L, 0}, {-2.0L, -1.0L, 0}}, HasLibm},
      {"fmin", [](LD X, LD Y, LD) { return std::fmin(X, Y); }, MinMaxPoints,
       HasLibm},
      {"fmax", [](LD X, LD Y, LD) { return std::fmax(X, Y); }, MinMaxPoints,
       HasLibm},
      {"fminimum", [](LD X, LD Y, LD) { return ::fminimuml(X, Y); },
       MinMaxPoints, HasLibm | NoLongDoubleIntrinsic},
      {"fmaximum", [](LD X, LD Y, LD) { return ::fmaximuml(X, Y); },
       MinMaxPoints, HasLibm | NoLongDoubleIntrinsic},
      {"fma", [](LD X, LD Y, LD Z) { return std::fma(X, Y, Z); },
       {{1.5L, -2.0L, 0.3L}, {0.7L, 3.1L, -4.0L}}, HasLibm},
      // No C function: only llvm.fmuladd.
      {"fmuladd", [](LD X, LD Y, LD Z) { return std::fma(X, Y, Z); },
       {{1.5L, -2.0L, 0.3L}, {0.7L, 3.1L, -4.0L}}},
      {"fmod", [](LD X, LD Y, LD) { return std::fmod(X, Y); },
       RemainderPoints, HasLibm},

      // Piecewise constant.
      {"floor", [](LD X, LD, LD) { return std::floor(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"ceil", [](LD X, LD, LD) { return std::ceil(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"trunc", [](LD X, LD, LD) { return std::trunc(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"round", [](LD X, LD, LD) { return std::round(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"roundeven", [](LD X, LD, LD) { return ::roundevenl(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"rint", [](LD X, LD, LD) { return std::rint(X); }, StepPoints,
       HasLibm | ZeroDerivative},
      {"nearbyint", [](LD X, LD, LD) { return std::nearbyint(X); },
       StepPoints, HasLibm | ZeroDerivative},
  };
  // clang-format on
  return Checks;
}

/// Rules whose result is an integer: known, but nothing to differentiate.
const char *const IntegerResultRules[] = {"lround", "llround", "lrint",
                                          "llrint"};

const DerivativeRule *ruleNamed(StringRef Name) {
  for (const DerivativeRule &R : allRules())
    if (R.Name == Name)
      return &R;
  return nullptr;
}

/// Derivative of \p F in operand \p I at \p A by the fourth-order central
/// difference (f(-2h) - 8f(-h) + 8f(h) - f(2h)) / 12h, in long double. Its
/// error, about h^4 f^(5) + eps/h, is near 1e-15 for h = 2^-13; the simple
/// central difference could not resolve a constant wrong in its tenth digit.
LD centralDifference(RefFn F, const LD (&A)[3], unsigned I) {
  const LD H = std::ldexp(1.0L, -13) * std::max<LD>(1, std::fabs(A[I]));
  auto At = [&](LD Offset) {
    LD B[3] = {A[0], A[1], A[2]};
    B[I] += Offset;
    return F(B[0], B[1], B[2]);
  };
  return (At(-2 * H) - 8 * At(-H) + 8 * At(H) - At(2 * H)) / (12 * H);
}

enum class Form { Instruction, LibCall, Intrinsic };

/// One function to compile: a form of the primitive in a pair of types.
struct Variant {
  Form How;
  TypePair Types;

  std::string describe(const DerivativeRule &R) const {
    std::string S = precName(Types.Src);
    if (Types.Src != Types.Dst)
      S += std::string(" to ") + precName(Types.Dst);
    switch (How) {
    case Form::Instruction:
      return R.Name.str() + " on " + S;
    case Form::LibCall:
      return "C function " + R.Name.str() + " on " + S;
    case Form::Intrinsic:
      return "intrinsic " + Intrinsic::getBaseName(R.IntrinsicID).str() +
             " on " + S;
    }
    return S;
  }
};

std::vector<Variant> variantsOf(const DerivativeRule &R, const RuleCheck &C) {
  std::vector<TypePair> Types = C.Types;
  if (Types.empty())
    Types = {{Prec::Float, Prec::Float},
             {Prec::Double, Prec::Double},
             {Prec::LongDouble, Prec::LongDouble}};
  std::vector<Variant> Result;
  for (TypePair T : Types) {
    if (R.Kind == DerivativeRule::Instruction) {
      Result.push_back({Form::Instruction, T});
      continue;
    }
    if (C.Flags & HasLibm)
      Result.push_back({Form::LibCall, T});
    if (R.IntrinsicID != Intrinsic::not_intrinsic &&
        !((C.Flags & NoLongDoubleIntrinsic) && T.Src == Prec::LongDouble))
      Result.push_back({Form::Intrinsic, T});
  }
  return Result;
}

enum class OperandKind { Real, Int, Cond };

OperandKind operandKind(const RuleCheck &C, unsigned Idx) {
  if ((C.Flags & CondOperand0) && Idx == 0)
    return OperandKind::Cond;
  if ((C.Flags & IntOperand1) && Idx == 1)
    return OperandKind::Int;
  return OperandKind::Real;
}

/// The C library's name for \p Base in precision \p P: sin, sinf, sinl.
std::string libmName(StringRef Base, Prec P) {
  switch (P) {
  case Prec::Float:
    return (Base + "f").str();
  case Prec::Double:
    return Base.str();
  case Prec::LongDouble:
    return (Base + "l").str();
  }
  return Base.str();
}

/// Applies the primitive of \p R to \p Ops in the form \p V asks for.
Value *createPrimitive(IRBuilder<> &B, Module &M, const DerivativeRule &R,
                       const Variant &V, ArrayRef<Value *> Ops) {
  Type *DstTy = precType(M.getContext(), V.Types.Dst);
  switch (V.How) {
  case Form::Instruction:
    switch (R.Opcode) {
    case Instruction::FNeg:
      return B.CreateFNeg(Ops[0]);
    case Instruction::FPExt:
      return B.CreateFPExt(Ops[0], DstTy);
    case Instruction::FPTrunc:
      return B.CreateFPTrunc(Ops[0], DstTy);
    case Instruction::Freeze:
      return B.CreateFreeze(Ops[0]);
    case Instruction::Select:
      return B.CreateSelect(Ops[0], Ops[1], Ops[2]);
    default:
      if (Instruction::isBinaryOp(R.Opcode))
        return B.CreateBinOp(static_cast<Instruction::BinaryOps>(R.Opcode),
                             Ops[0], Ops[1]);
      return nullptr;
    }
  case Form::LibCall: {
    SmallVector<Type *, 3> ParamTys;
    for (Value *Op : Ops)
      ParamTys.push_back(Op->getType());
    FunctionCallee Callee =
        M.getOrInsertFunction(libmName(R.Name, V.Types.Src),
                              FunctionType::get(DstTy, ParamTys, false));
    return B.CreateCall(Callee, Ops);
  }
  case Form::Intrinsic:
    return B.CreateIntrinsic(DstTy, R.IntrinsicID, Ops);
  }
  return nullptr;
}

/// Builds `void Name(ptr %out, x86_fp80 %a0, %a1, %a2)`: converts the
/// arguments to the operand types, applies the primitive, and stores the
/// partial for each real operand in out[i] and the primal result in out[3],
/// widened to x86_fp80 (exactly). Records a failure and returns false when
/// the table does not resolve or differentiate the primitive as expected.
bool buildCheck(Module &M, StringRef Name, const DerivativeRule &R,
                const RuleCheck &C, const Variant &V) {
  LLVMContext &Ctx = M.getContext();
  Type *Wide = Type::getX86_FP80Ty(Ctx);
  Type *SrcTy = precType(Ctx, V.Types.Src);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx),
                               {PointerType::get(Ctx, 0), Wide, Wide, Wide},
                               /*isVarArg=*/false);
  Function *F = Function::Create(FT, Function::ExternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));

  SmallVector<Value *, 3> Ops;
  for (unsigned Idx = 0; Idx != R.NumOperands; ++Idx) {
    Value *A = F->getArg(Idx + 1);
    switch (operandKind(C, Idx)) {
    case OperandKind::Real:
      Ops.push_back(B.CreateFPCast(A, SrcTy));
      break;
    case OperandKind::Int:
      Ops.push_back(B.CreateFPToSI(A, B.getInt32Ty()));
      break;
    case OperandKind::Cond:
      Ops.push_back(B.CreateFCmpUNE(A, ConstantFP::get(Wide, 0.0)));
      break;
    }
  }

  auto *Prim = dyn_cast_or_null<Instruction>(createPrimitive(B, M, R, V, Ops));
  if (!Prim) {
    ADD_FAILURE() << "cannot build the primitive";
    return false;
  }
  if (findRule(*Prim) != &R) {
    ADD_FAILURE() << "findRule does not map the primitive to its rule";
    return false;
  }

  Value *Out = F->getArg(0);
  for (unsigned Idx = 0; Idx != R.NumOperands; ++Idx) {
    rules::Expr P = emitPartial(R, *Prim, Idx, B);
    if (operandKind(C, Idx) != OperandKind::Real) {
      EXPECT_TRUE(P.isNone()) << "operand " << Idx << " takes no derivative";
      continue;
    }
    if (P.isNone()) {
      ADD_FAILURE() << "no partial for real operand " << Idx;
      return false;
    }
    // Partials have the type of the result, which is what the adjoint they
    // multiply has.
    EXPECT_EQ(P.type(), Prim->getType()) << "operand " << Idx;
    B.CreateStore(B.CreateFPCast(P.value(), Wide),
                  B.CreateConstInBoundsGEP1_32(Wide, Out, Idx));
  }
  B.CreateStore(B.CreateFPCast(Prim, Wide),
                B.CreateConstInBoundsGEP1_32(Wide, Out, 3));
  B.CreateRetVoid();

  std::string Errors;
  raw_string_ostream OS(Errors);
  if (verifyModule(M, &OS)) {
    ADD_FAILURE() << "invalid IR:\n" << Errors;
    return false;
  }
  return true;
}

/// One ORC JIT per test; each variant is its own module in its own context.
class Jit {
public:
  Jit() {
    static const bool TargetReady = [] {
      InitializeNativeTarget();
      InitializeNativeTargetAsmPrinter();
      return true;
    }();
    (void)TargetReady;
    // The default process-symbol generator resolves the C library calls
    // (sinl, ...) and compiler-rt/libgcc helpers (__powixf2) in this process.
    auto J = orc::LLJITBuilder().create();
    if (!J) {
      ADD_FAILURE() << "cannot create the JIT: " << toString(J.takeError());
      return;
    }
    Impl = std::move(*J);
  }

  bool valid() const { return Impl != nullptr; }

  /// Compiles \p M and returns \p Symbol, or null with a failure recorded.
  CheckFn compile(std::unique_ptr<Module> M, std::unique_ptr<LLVMContext> Ctx,
                  StringRef Symbol) {
    if (Error E = Impl->addIRModule(
            orc::ThreadSafeModule(std::move(M), std::move(Ctx)))) {
      ADD_FAILURE() << "cannot add the module: " << toString(std::move(E));
      return nullptr;
    }
    auto Addr = Impl->lookup(Symbol);
    if (!Addr) {
      ADD_FAILURE() << "cannot compile: " << toString(Addr.takeError());
      return nullptr;
    }
    return Addr->toPtr<CheckFn>();
  }

private:
  std::unique_ptr<orc::LLJIT> Impl;
};

/// Runs \p Fn at every point of \p C and compares with the references.
void checkValues(CheckFn Fn, const DerivativeRule &R, const RuleCheck &C,
                 const Variant &V) {
  const Prec Coarse = std::min(V.Types.Src, V.Types.Dst);
  const LD Tol = tolerance(Coarse);
  for (const Point &P : C.Points) {
    SCOPED_TRACE("at " + printPoint(P));
    // Evaluate the reference where the compiled code actually is: real
    // operands rounded to their type, the integer exponent truncated.
    LD A[3] = {P.X, P.Y, P.Z};
    for (unsigned Idx = 0; Idx != R.NumOperands; ++Idx)
      if (operandKind(C, Idx) == OperandKind::Real)
        A[Idx] = roundTo(A[Idx], V.Types.Src);
      else if (operandKind(C, Idx) == OperandKind::Int)
        A[Idx] = std::trunc(A[Idx]);

    LD Out[4];
    std::fill(std::begin(Out), std::end(Out),
              std::numeric_limits<LD>::quiet_NaN());
    Fn(Out, A[0], A[1], A[2]);

    // The primal: guards the reference table itself (e.g. atan2's order).
    LD Primal = C.Ref(A[0], A[1], A[2]);
    EXPECT_LE(std::fabs(Out[3] - Primal),
              Tol * std::max<LD>(1, std::fabs(Primal)))
        << "primal: got " << static_cast<double>(Out[3]) << ", libm gives "
        << static_cast<double>(Primal);

    for (unsigned Idx = 0; Idx != R.NumOperands; ++Idx) {
      if (operandKind(C, Idx) != OperandKind::Real)
        continue;
      LD Expected = centralDifference(C.Ref, A, Idx);
      if (C.Flags & ZeroDerivative) {
        EXPECT_EQ(Out[Idx], 0.0L) << "partial " << Idx << " must be exactly 0";
        // Also guards the points: no jump within the step.
        EXPECT_EQ(Expected, 0.0L) << "point too close to a jump";
        continue;
      }
      EXPECT_LE(std::fabs(Out[Idx] - Expected),
                Tol * std::max<LD>(1, std::fabs(Expected)))
          << "partial " << Idx << ": got " << static_cast<double>(Out[Idx])
          << ", central difference gives " << static_cast<double>(Expected);
    }
  }
}

class RuleNumerics : public ::testing::TestWithParam<RuleCheck> {};

TEST_P(RuleNumerics, PartialsMatchFiniteDifferences) {
  const RuleCheck &C = GetParam();
  const DerivativeRule *R = ruleNamed(C.Name);
  ASSERT_NE(R, nullptr) << "the table has no rule '" << C.Name << "'";
  Jit J;
  ASSERT_TRUE(J.valid());

  std::vector<Variant> Variants = variantsOf(*R, C);
  ASSERT_FALSE(Variants.empty());
  unsigned Counter = 0;
  for (const Variant &V : Variants) {
    SCOPED_TRACE(V.describe(*R));
    auto Ctx = std::make_unique<LLVMContext>();
    auto M = std::make_unique<Module>("rule-check", *Ctx);
    std::string Symbol = "check" + std::to_string(Counter++);
    if (!buildCheck(*M, Symbol, *R, C, V))
      continue;
    if (CheckFn Fn = J.compile(std::move(M), std::move(Ctx), Symbol))
      checkValues(Fn, *R, C, V);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, RuleNumerics, ::testing::ValuesIn(ruleChecks()),
                         [](const ::testing::TestParamInfo<RuleCheck> &Info) {
                           return std::string(Info.param.Name);
                         });

TEST(RuleTable, EveryRuleIsChecked) {
  std::set<std::string> Checked;
  for (const RuleCheck &C : ruleChecks())
    Checked.insert(C.Name);
  for (const char *Name : IntegerResultRules)
    Checked.insert(Name);
  // Rules on vectors, which this scalar harness cannot build, are checked
  // end to end against finite differences instead:
  // test/e2e/vector-reductions.c.
  for (const char *Name :
       {"vector_reduce_fadd", "vector_reduce_fmul", "vector_reduce_fmax",
        "vector_reduce_fmin", "vector_reduce_fmaximum",
        "vector_reduce_fminimum"})
    Checked.insert(Name);
  for (const DerivativeRule &R : allRules())
    // Complex rules are checked in ComplexRuleTest.cpp.
    if (R.Kind != DerivativeRule::ComplexFunction)
      EXPECT_TRUE(Checked.count(R.Name.str()))
          << "rule '" << R.Name.str()
          << "' has no numeric check in RuleTableTest.cpp";
}

TEST(RuleTable, IntegerResultRulesTakeNoDerivative) {
  LLVMContext Ctx;
  Module M("lround", Ctx);
  Type *D = Type::getDoubleTy(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *F = Function::Create(FunctionType::get(I64, {D}, false),
                                 Function::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  for (const char *Name : IntegerResultRules) {
    SCOPED_TRACE(Name);
    const DerivativeRule *R = ruleNamed(Name);
    ASSERT_NE(R, nullptr);
    EXPECT_EQ(R->Kind, DerivativeRule::Function);
    FunctionCallee Callee = M.getOrInsertFunction(Name, I64, D);
    auto *Call = B.CreateCall(Callee, {F->getArg(0)});
    EXPECT_EQ(findRule(*Call), R);
    ASSERT_EQ(R->NumOperands, 1u);
    EXPECT_TRUE(emitPartial(*R, *Call, 0, B).isNone());
  }
}

// DerivativeRules.h promises that operands the table marks `inactive` are
// not differentiable; synthesis may skip their adjoints on that basis.
TEST(RuleTable, InactiveOperandsAreNotDifferentiable) {
  struct {
    const char *Rule;
    unsigned Operand;
    bool Differentiable;
  } const Cases[] = {
      {"Select", 0, false}, {"Select", 1, true}, {"Select", 2, true},
      {"powi", 0, true},    {"powi", 1, false},  {"lround", 0, false},
      {"lrint", 0, false},  {"sin", 0, true},    {"sin", 1, false},
      {"fma", 2, true},     {"FMul", 2, false}};
  for (const auto &Case : Cases) {
    const DerivativeRule *R = ruleNamed(Case.Rule);
    ASSERT_NE(R, nullptr) << Case.Rule;
    EXPECT_EQ(R->isOperandDifferentiable(Case.Operand), Case.Differentiable)
        << Case.Rule << " operand " << Case.Operand;
  }
}

TEST(RuleTable, CoversTheRequiredFunctions) {
  const char *const Required[] = {
      "sqrt",  "cbrt",  "exp",      "exp2",      "expm1",   "log",   "log2",
      "log10", "log1p", "pow",      "sin",       "cos",     "tan",   "asin",
      "acos",  "atan",  "atan2",    "sinh",      "cosh",    "tanh",  "asinh",
      "acosh", "atanh", "erf",      "erfc",      "hypot",   "fabs",  "fmin",
      "fmax",  "copysign", "fma",   "floor",     "ceil",    "trunc", "round",
      "rint",  "nearbyint", "lround"};
  for (const char *Name : Required) {
    const DerivativeRule *R = findFunctionRule(Name);
    ASSERT_NE(R, nullptr) << "no rule for " << Name;
    EXPECT_EQ(R->Name, Name);
    EXPECT_EQ(R->Kind, DerivativeRule::Function) << Name;
  }
  // Intrinsics without a C function of the same name: found by intrinsic,
  // never by a C name (a user's `double powi(double, int)` is not llvm.powi).
  const std::pair<const char *, Intrinsic::ID> IntrinsicOnly[] = {
      {"powi", Intrinsic::powi}, {"fmuladd", Intrinsic::fmuladd}};
  for (auto [Name, IID] : IntrinsicOnly) {
    const DerivativeRule *R = ruleNamed(Name);
    ASSERT_NE(R, nullptr) << "no rule for " << Name;
    EXPECT_EQ(R->IntrinsicID, IID) << Name;
    EXPECT_FALSE(R->HasCFunction) << Name;
    EXPECT_EQ(findFunctionRule(Name), nullptr) << Name;
  }
  const char *const Instructions[] = {"FAdd",  "FSub",    "FMul",
                                      "FDiv",  "FRem",    "FNeg",
                                      "FPExt", "FPTrunc", "Select"};
  for (const char *Name : Instructions) {
    const DerivativeRule *R = ruleNamed(Name);
    ASSERT_NE(R, nullptr) << "no rule for " << Name;
    EXPECT_EQ(R->Kind, DerivativeRule::Instruction);
  }
}

TEST(RuleTable, InstructionRulesNameTheirOpcode) {
  for (const DerivativeRule &R : allRules())
    if (R.Kind == DerivativeRule::Instruction)
      EXPECT_TRUE(
          R.Name.equals_insensitive(Instruction::getOpcodeName(R.Opcode)))
          << R.Name.str() << " has opcode "
          << Instruction::getOpcodeName(R.Opcode);
}

TEST(RuleTable, FunctionNamesAndTheirVariants) {
  struct {
    const char *Symbol, *Rule;
  } const Resolved[] = {
      {"sin", "sin"},   {"sinf", "sin"},   {"sinl", "sin"},
      {"ceil", "ceil"}, {"ceilf", "ceil"}, {"ceill", "ceil"},
      {"erf", "erf"},   {"erff", "erf"},   {"erfl", "erf"},
      {"fma", "fma"},   {"fmaf", "fma"},   {"atan2l", "atan2"}};
  for (const auto &Case : Resolved) {
    const DerivativeRule *R = findFunctionRule(Case.Symbol);
    ASSERT_NE(R, nullptr) << Case.Symbol;
    EXPECT_EQ(R->Name, Case.Rule) << Case.Symbol;
  }
  // Not math functions of the table, though some look close: modf is not
  // mod+f, and a suffix is stripped at most once.
  for (const char *Symbol :
       {"modf", "sinx", "sinff", "ceilll", "cei", "", "f", "l", "FAdd"})
    EXPECT_EQ(findFunctionRule(Symbol), nullptr) << "'" << Symbol << "'";
}

TEST(RuleTable, FindRuleLooksAtTheCallee) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(R"IR(
    declare double @sin(double)
    declare float @sinf(double)
    declare x86_fp80 @sinl(x86_fp80)
    declare double @cos(double, double)
    define double @exp(double %x) {
      ret double %x
    }
    define double @f(double %x, i32 %n, ptr %fp) {
      %libm = call double @sin(double %x)
      %wrongtype = call float @sinf(double %x)
      %long = call x86_fp80 @sinl(x86_fp80 0xK3FFF8000000000000000)
      %arity = call double @cos(double %x, double %x)
      %defined = call double @exp(double %x)
      %intrinsic = call float @llvm.sin.f32(float 1.0)
      %indirect = call double %fp(double %x)
      %fadd = fadd double %x, %x
      %iadd = add i32 %n, %n
      ret double %x
    }
    declare float @llvm.sin.f32(float)
  )IR",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  auto Inst = [&](StringRef Name) -> Instruction & {
    for (Instruction &I : M->getFunction("f")->getEntryBlock())
      if (I.getName() == Name)
        return I;
    llvm_unreachable("no such instruction");
  };
  const DerivativeRule *Sin = findFunctionRule("sin");
  ASSERT_NE(Sin, nullptr);
  EXPECT_EQ(findRule(Inst("libm")), Sin);
  EXPECT_EQ(findRule(Inst("long")), Sin);
  EXPECT_EQ(findRule(Inst("intrinsic")), Sin);
  EXPECT_EQ(findRule(Inst("fadd")), ruleNamed("FAdd"));
  // sinf taking a double is not the C library's sinf.
  EXPECT_EQ(findRule(Inst("wrongtype")), nullptr);
  EXPECT_EQ(findRule(Inst("arity")), nullptr);
  // A function with a body is the user's, and is differentiated as code.
  EXPECT_EQ(findRule(Inst("defined")), nullptr);
  EXPECT_EQ(findRule(Inst("indirect")), nullptr);
  EXPECT_EQ(findRule(Inst("iadd")), nullptr);
}

} // namespace
