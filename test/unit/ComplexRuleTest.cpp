//===- ComplexRuleTest.cpp - The complex rules against the C library ------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Checks the complex entries of DerivativeRules.def numerically, as
// RuleTableTest does the real ones. For each rule, in double (complex
// numbers passed as two doubles, returned as a pair) and in float (passed
// and returned as <2 x float> by the C library, as four floats to the
// compiler's helpers), a small function calls the C library's function and
// applies emitOperandAdjoints to a seed; ORC JIT-compiles it, and the
// shares it produces are compared with the seed applied to the Jacobian
// that central differences of the C library's long double function give.
// The references never go through the table.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/DerivativeRules.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace adjoint;

namespace {

using LD = long double;
using CLD = std::complex<LD>;

/// The function in long double: a complex result (for real functions, in
/// the real part).
using RefFn = std::function<CLD(CLD, CLD)>;

/// The compiled check: reads x, y (complex arguments) and the seed (the
/// adjoint of the result) as re/im pairs, writes the share of each real
/// part of the arguments to Out[0..3] and the result to Out[4..5].
using CheckFn = void (*)(LD *Out, const LD *In);

struct ComplexCheck {
  const char *Name; ///< As spelled in the table.
  RefFn Ref;
  std::vector<std::pair<CLD, CLD>> Points; ///< Off branch cuts and poles.
};

void PrintTo(const ComplexCheck &C, std::ostream *OS) { *OS << C.Name; }

const std::vector<std::pair<CLD, CLD>> Points = {
    {{0.7L, -0.4L}, {1.3L, 0.6L}},
    {{1.9L, 0.8L}, {-0.5L, 1.1L}},
    {{0.4L, 1.2L}, {0.9L, -1.6L}}};

/// Every complex rule, as the C library computes it.
const std::vector<ComplexCheck> &complexChecks() {
  // clang-format off
  static const std::vector<ComplexCheck> Checks = {
      {"__muldc3", [](CLD X, CLD Y) { return X * Y; }, Points},
      {"__divdc3", [](CLD X, CLD Y) { return X / Y; }, Points},
      {"cexp", [](CLD X, CLD) { return std::exp(X); }, Points},
      {"clog", [](CLD X, CLD) { return std::log(X); }, Points},
      {"csqrt", [](CLD X, CLD) { return std::sqrt(X); }, Points},
      {"cpow", [](CLD X, CLD Y) { return std::pow(X, Y); }, Points},
      {"csin", [](CLD X, CLD) { return std::sin(X); }, Points},
      {"ccos", [](CLD X, CLD) { return std::cos(X); }, Points},
      {"ctan", [](CLD X, CLD) { return std::tan(X); }, Points},
      {"csinh", [](CLD X, CLD) { return std::sinh(X); }, Points},
      {"ccosh", [](CLD X, CLD) { return std::cosh(X); }, Points},
      {"ctanh", [](CLD X, CLD) { return std::tanh(X); }, Points},
      {"cproj", [](CLD X, CLD) { return std::proj(X); }, Points},
      {"conj", [](CLD X, CLD) { return std::conj(X); }, Points},
      {"creal", [](CLD X, CLD) { return CLD(std::real(X)); }, Points},
      {"cimag", [](CLD X, CLD) { return CLD(std::imag(X)); }, Points},
      {"cabs", [](CLD X, CLD) { return CLD(std::abs(X)); }, Points},
      {"carg", [](CLD X, CLD) { return CLD(std::arg(X)); }, Points},
  };
  // clang-format on
  return Checks;
}

const DerivativeRule *ruleNamed(StringRef Name) {
  for (const DerivativeRule &R : allRules())
    if (R.Name == Name)
      return &R;
  return nullptr;
}

/// The symbol for \p R in float or double: cexpf, __mulsc3, ...
std::string symbolFor(const DerivativeRule &R, bool Float) {
  std::string S = R.Name.str();
  if (!Float)
    return S;
  if (StringRef(S).starts_with("__")) {
    S[S.size() - 3] = 's';
    return S;
  }
  return S + "f";
}

/// Builds `void Name(ptr %out, ptr %in)`; see CheckFn.
bool buildCheck(Module &M, StringRef Name, const DerivativeRule &R,
                bool Float) {
  LLVMContext &Ctx = M.getContext();
  Type *Wide = Type::getX86_FP80Ty(Ctx);
  Type *Elt = Float ? Type::getFloatTy(Ctx) : Type::getDoubleTy(Ctx);
  Type *Ptr = PointerType::get(Ctx, 0);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  Function *F = Function::Create(FT, Function::ExternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Out = F->getArg(0), *In = F->getArg(1);
  auto Read = [&](unsigned I) {
    return B.CreateFPTrunc(
        B.CreateLoad(Wide, B.CreateConstInBoundsGEP1_32(Wide, In, I)), Elt);
  };
  auto Write = [&](unsigned I, Value *V) {
    B.CreateStore(B.CreateFPExt(V, Wide),
                  B.CreateConstInBoundsGEP1_32(Wide, Out, I));
  };

  // The helpers take the parts as scalars; the C library takes float
  // complex numbers as vectors.
  bool Helper = R.Name.starts_with("__");
  bool Vectors = Float && !Helper;
  auto *Pair = FixedVectorType::get(Elt, 2);
  SmallVector<Value *, 4> Args;
  SmallVector<Type *, 4> Params;
  for (unsigned K = 0; K != R.NumOperands; ++K) {
    Value *Re = Read(2 * K), *Im = Read(2 * K + 1);
    if (Vectors) {
      Value *V = B.CreateInsertElement(PoisonValue::get(Pair), Re, uint64_t(0));
      Args.push_back(B.CreateInsertElement(V, Im, 1));
      Params.push_back(Pair);
      continue;
    }
    Args.append({Re, Im});
    Params.append({Elt, Elt});
  }
  bool RealResult = R.Form == DerivativeRule::ToReal;
  Type *Ret = RealResult ? Elt
              : Float    ? static_cast<Type *>(Pair)
                         : StructType::get(Ctx, {Elt, Elt});
  FunctionCallee Callee = M.getOrInsertFunction(
      symbolFor(R, Float), FunctionType::get(Ret, Params, false));
  CallInst *Call = B.CreateCall(Callee, Args);
  if (findRule(*Call) != &R) {
    ADD_FAILURE() << "findRule does not map " << symbolFor(R, Float)
                  << " to its rule";
    return false;
  }

  // The seed, in the result's own form.
  Value *Seed;
  if (RealResult) {
    Seed = Read(4);
  } else if (Ret->isVectorTy()) {
    Seed = B.CreateInsertElement(PoisonValue::get(Ret), Read(4), uint64_t(0));
    Seed = B.CreateInsertElement(Seed, Read(5), 1);
  } else {
    Seed = B.CreateInsertValue(PoisonValue::get(Ret), Read(4), 0);
    Seed = B.CreateInsertValue(Seed, Read(5), 1);
  }

  // Shares default to zero (an argument part that takes none).
  for (unsigned I = 0; I != 4; ++I)
    Write(I, ConstantFP::get(Elt, 0.0));
  emitOperandAdjoints(
      R, *Call, Seed, B, [](const Value *) { return true; },
      [&](unsigned Idx, Value *Share) {
        if (!Share->getType()->isVectorTy())
          return Write(Idx, Share);
        Write(2 * Idx, B.CreateExtractElement(Share, uint64_t(0)));
        Write(2 * Idx + 1, B.CreateExtractElement(Share, 1));
      });
  if (RealResult) {
    Write(4, Call);
    Write(5, ConstantFP::get(Elt, 0.0));
  } else if (Ret->isVectorTy()) {
    Write(4, B.CreateExtractElement(Call, uint64_t(0)));
    Write(5, B.CreateExtractElement(Call, 1));
  } else {
    Write(4, B.CreateExtractValue(Call, 0));
    Write(5, B.CreateExtractValue(Call, 1));
  }
  B.CreateRetVoid();

  std::string Errors;
  raw_string_ostream OS(Errors);
  if (verifyModule(M, &OS)) {
    ADD_FAILURE() << "invalid IR:\n" << Errors;
    return false;
  }
  return true;
}

CheckFn compile(orc::LLJIT &J, std::unique_ptr<Module> M,
                std::unique_ptr<LLVMContext> Ctx, StringRef Symbol) {
  if (Error E = J.addIRModule(
          orc::ThreadSafeModule(std::move(M), std::move(Ctx)))) {
    ADD_FAILURE() << "cannot add the module: " << toString(std::move(E));
    return nullptr;
  }
  auto Addr = J.lookup(Symbol);
  if (!Addr) {
    ADD_FAILURE() << "cannot compile: " << toString(Addr.takeError());
    return nullptr;
  }
  return Addr->toPtr<CheckFn>();
}

/// d Ref / d (real part \p Part of the arguments) at (X, Y), by the
/// fourth-order central difference.
CLD centralDifference(const RefFn &Ref, CLD X, CLD Y, unsigned Part) {
  const LD H = std::ldexp(1.0L, -13);
  auto At = [&](LD Offset) {
    CLD A = X, B = Y;
    switch (Part) {
    case 0:
      A += Offset;
      break;
    case 1:
      A += CLD(0, Offset);
      break;
    case 2:
      B += Offset;
      break;
    default:
      B += CLD(0, Offset);
      break;
    }
    return Ref(A, B);
  };
  return (At(-2 * H) - LD(8) * At(-H) + LD(8) * At(H) - At(2 * H)) /
         (12 * H);
}

class ComplexRuleNumerics : public ::testing::TestWithParam<ComplexCheck> {};

TEST_P(ComplexRuleNumerics, SharesMatchFiniteDifferences) {
  static const bool TargetReady = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)TargetReady;
  const ComplexCheck &C = GetParam();
  const DerivativeRule *R = ruleNamed(C.Name);
  ASSERT_NE(R, nullptr) << "the table has no rule '" << C.Name << "'";
  ASSERT_EQ(R->Kind, DerivativeRule::ComplexFunction);
  auto J = orc::LLJITBuilder().create();
  ASSERT_TRUE(!!J) << toString(J.takeError());

  for (bool Float : {false, true}) {
    SCOPED_TRACE(Float ? "float" : "double");
    auto Ctx = std::make_unique<LLVMContext>();
    auto M = std::make_unique<Module>("complex-rule-check", *Ctx);
    std::string Symbol = std::string("check_") + (Float ? "f" : "d");
    if (!buildCheck(*M, Symbol, *R, Float))
      continue;
    CheckFn Fn = compile(**J, std::move(M), std::move(Ctx), Symbol);
    if (!Fn)
      continue;
    const LD Tol = Float ? 2e-5L : 1e-11L;
    auto Round = [&](LD V) -> LD {
      return Float ? LD(float(V)) : LD(double(V));
    };
    // Two seeds: the adjoint of the real part, then of the imaginary one.
    for (const auto &[X0, Y0] : C.Points) {
      for (CLD Seed : {CLD(1.0L, 0.0L), CLD(0.3L, -1.7L)}) {
        CLD X(Round(X0.real()), Round(X0.imag()));
        CLD Y(Round(Y0.real()), Round(Y0.imag()));
        const LD In[6] = {X.real(), X.imag(), Y.real(),
                          Y.imag(), Seed.real(), Seed.imag()};
        LD Out[6];
        std::fill(std::begin(Out), std::end(Out),
                  std::numeric_limits<LD>::quiet_NaN());
        Fn(Out, In);
        CLD Primal = C.Ref(X, Y);
        EXPECT_LE(std::abs(CLD(Out[4], Out[5]) - Primal),
                  Tol * std::max<LD>(1, std::abs(Primal)))
            << "primal at " << double(X.real()) << "+" << double(X.imag())
            << "i";
        for (unsigned Part = 0; Part != 2 * R->NumOperands; ++Part) {
          // The share of an argument part: the seed applied to the column
          // of the Jacobian for that part.
          CLD D = centralDifference(C.Ref, X, Y, Part);
          LD Expected = Seed.real() * D.real() + Seed.imag() * D.imag();
          EXPECT_LE(std::fabs(Out[Part] - Expected),
                    Tol * std::max<LD>(1, std::fabs(Expected)))
              << "part " << Part << " at x = " << double(X.real()) << "+"
              << double(X.imag()) << "i, seed " << double(Seed.real())
              << "+" << double(Seed.imag()) << "i: got " << double(Out[Part])
              << ", central difference gives " << double(Expected);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ComplexRuleNumerics, ::testing::ValuesIn(complexChecks()),
    [](const ::testing::TestParamInfo<ComplexCheck> &Info) {
      return std::string(Info.param.Name);
    });

TEST(ComplexRuleTable, EveryComplexRuleIsChecked) {
  std::set<std::string> Checked;
  for (const ComplexCheck &C : complexChecks())
    Checked.insert(C.Name);
  for (const DerivativeRule &R : allRules())
    if (R.Kind == DerivativeRule::ComplexFunction)
      EXPECT_TRUE(Checked.count(R.Name.str()))
          << "complex rule '" << R.Name.str()
          << "' has no numeric check in ComplexRuleTest.cpp";
}

// Names and forms: the precision letter of the helpers, the f and l
// suffixes, and the ABI forms a call must have.
TEST(ComplexRuleTable, CallsMatchTheirForms) {
  LLVMContext Ctx;
  Module M("forms", Ctx);
  Type *D = Type::getDoubleTy(Ctx), *F = Type::getFloatTy(Ctx);
  Type *X = Type::getX86_FP80Ty(Ctx), *Ptr = PointerType::get(Ctx, 0);
  Type *V2F = FixedVectorType::get(F, 2);
  Type *PairD = StructType::get(Ctx, {D, D});
  Type *PairX = StructType::get(Ctx, {X, X});
  Function *Fn =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                       Function::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Fn));
  auto CallOf = [&](StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    SmallVector<Value *, 4> Args;
    for (Type *P : Params)
      Args.push_back(Constant::getNullValue(P));
    return B.CreateCall(
        M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false)),
        Args);
  };
  const DerivativeRule *Mul = findFunctionRule("__mulsc3");
  ASSERT_NE(Mul, nullptr);
  EXPECT_EQ(Mul->Name, "__muldc3");
  EXPECT_EQ(findFunctionRule("__mulxc3"), Mul);
  EXPECT_EQ(findFunctionRule("__mulqc3"), nullptr);
  EXPECT_EQ(findRule(*CallOf("__mulxc3", PairX, {X, X, X, X})), Mul);
  EXPECT_EQ(findRule(*CallOf("__muldc3", PairD, {D, D, D, D})), Mul);
  // The letter must agree with the type.
  EXPECT_EQ(findRule(*CallOf("__mulsc3", PairD, {D, D, D, D})), nullptr);

  const DerivativeRule *Exp = findFunctionRule("cexp");
  ASSERT_NE(Exp, nullptr);
  EXPECT_EQ(findRule(*CallOf("cexp", PairD, {D, D})), Exp);
  EXPECT_EQ(findRule(*CallOf("cexpf", V2F, {V2F})), Exp);
  // long double complex numbers are passed in memory: not supported.
  EXPECT_EQ(findRule(*CallOf("cexpl", PairX, {Ptr})), nullptr);
  // Wrong arity or result.
  EXPECT_EQ(findRule(*CallOf("cexp", PairD, {D})), nullptr);
  EXPECT_EQ(findRule(*CallOf("cexp", D, {D, D})), nullptr);
  const DerivativeRule *Abs = findFunctionRule("cabs");
  ASSERT_NE(Abs, nullptr);
  EXPECT_EQ(findRule(*CallOf("cabsf", F, {V2F})), Abs);
  EXPECT_EQ(findRule(*CallOf("cabs", PairD, {D, D})), nullptr);
}

} // namespace
