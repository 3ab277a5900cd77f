//===- DerivativeRules.cpp - The derivative table ---------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Rules/DerivativeRules.h"
#include "ComplexCalls.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include <string_view>

using namespace llvm;

namespace adjoint {

namespace {

/// The table's word for "no derivative flows to this operand".
constexpr bool isInactiveFormula(std::string_view Formula) {
  return Formula == "inactive";
}

// Turn each formula of the table into a captureless function (null for
// `inactive`); the names a formula may use are bound here.
#define ADJOINT_PARTIAL(Formula)                                               \
  (isInactiveFormula(#Formula)                                                 \
       ? nullptr                                                               \
       : +[](const RuleScope &S) -> rules::Expr {                              \
           using namespace rules;                                              \
           [[maybe_unused]] const Expr &x = S.X[0], &y = S.X[1], &z = S.X[2],  \
                                       &r = S.R, &one = S.One,                 \
                                       &zero = S.Zero;                         \
           [[maybe_unused]] const Expr inactive;                               \
           return Formula;                                                     \
         })
#define ADJOINT_PARTIALS_1(A) 1, {ADJOINT_PARTIAL(A), nullptr, nullptr}
#define ADJOINT_PARTIALS_2(A, B)                                               \
  2, {ADJOINT_PARTIAL(A), ADJOINT_PARTIAL(B), nullptr}
#define ADJOINT_PARTIALS_3(A, B, C)                                            \
  3, {ADJOINT_PARTIAL(A), ADJOINT_PARTIAL(B), ADJOINT_PARTIAL(C)}
#define ADJOINT_PICK(_1, _2, _3, Name, ...) Name
#define ADJOINT_PARTIALS(...)                                                  \
  ADJOINT_PICK(__VA_ARGS__, ADJOINT_PARTIALS_3, ADJOINT_PARTIALS_2,            \
               ADJOINT_PARTIALS_1, unused)(__VA_ARGS__)

// The same for complex formulas: x, y and r are complex numbers (r is real
// for functions with a real result), and so are the constants.
#define ADJOINT_COMPLEX_PARTIAL(Formula)                                       \
  +[](const ComplexRuleScope &S) -> rules::Complex {                           \
    using namespace rules;                                                     \
    [[maybe_unused]] const Complex &x = S.X[0], &y = S.X[1], &r = S.R,         \
                                   &one = S.One, &zero = S.Zero,               \
                                   &iunit = S.IUnit;                           \
    return Formula;                                                            \
  }
#define ADJOINT_REAL_RESULT_PARTIAL(Formula)                                   \
  +[](const ComplexRuleScope &S) -> rules::Complex {                           \
    using namespace rules;                                                     \
    [[maybe_unused]] const Complex &x = S.X[0], &one = S.One, &zero = S.Zero,  \
                                   &iunit = S.IUnit;                           \
    [[maybe_unused]] const Expr &r = S.RealR;                                  \
    return Formula;                                                            \
  }
#define ADJOINT_COMPLEX_PARTIALS_1(A)                                          \
  1, {nullptr, nullptr, nullptr}, DerivativeRule::Holomorphic,                 \
      {ADJOINT_COMPLEX_PARTIAL(A), nullptr}
#define ADJOINT_COMPLEX_PARTIALS_2(A, B)                                       \
  2, {nullptr, nullptr, nullptr}, DerivativeRule::Holomorphic,                 \
      {ADJOINT_COMPLEX_PARTIAL(A), ADJOINT_COMPLEX_PARTIAL(B)}
#define ADJOINT_COMPLEX_PICK(_1, _2, Name, ...) Name
#define ADJOINT_COMPLEX_PARTIALS(...)                                          \
  ADJOINT_COMPLEX_PICK(__VA_ARGS__, ADJOINT_COMPLEX_PARTIALS_2,                \
                       ADJOINT_COMPLEX_PARTIALS_1, unused)(__VA_ARGS__)

const DerivativeRule Rules[] = {
#define ADJOINT_INSTRUCTION(Opcode, ...)                                       \
  {DerivativeRule::Instruction, #Opcode, Instruction::Opcode,                  \
   Intrinsic::not_intrinsic, false, ADJOINT_PARTIALS(__VA_ARGS__)},
#define ADJOINT_FUNCTION(Name, IID, ...)                                       \
  {DerivativeRule::Function, #Name, 0, Intrinsic::IID, true,                   \
   ADJOINT_PARTIALS(__VA_ARGS__)},
#define ADJOINT_INTRINSIC(Name, IID, ...)                                      \
  {DerivativeRule::Function, #Name, 0, Intrinsic::IID, false,                  \
   ADJOINT_PARTIALS(__VA_ARGS__)},
#define ADJOINT_COMPLEX(Name, ...)                                             \
  {DerivativeRule::ComplexFunction, #Name, 0, Intrinsic::not_intrinsic, true,  \
   ADJOINT_COMPLEX_PARTIALS(__VA_ARGS__)},
#define ADJOINT_COMPLEX_CONJUGATE(Name, Partial)                               \
  {DerivativeRule::ComplexFunction, #Name, 0, Intrinsic::not_intrinsic, true,  \
   1, {nullptr, nullptr, nullptr}, DerivativeRule::Conjugate,                  \
   {ADJOINT_COMPLEX_PARTIAL(Partial), nullptr}},
#define ADJOINT_COMPLEX_TO_REAL(Name, Gradient)                                \
  {DerivativeRule::ComplexFunction, #Name, 0, Intrinsic::not_intrinsic, true,  \
   1, {nullptr, nullptr, nullptr}, DerivativeRule::ToReal,                     \
   {ADJOINT_REAL_RESULT_PARTIAL(Gradient), nullptr}},
#include "adjoint/Rules/DerivativeRules.def"
};

struct RuleIndex {
  DenseMap<unsigned, const DerivativeRule *> ByOpcode;
  DenseMap<unsigned, const DerivativeRule *> ByIntrinsic;
  StringMap<const DerivativeRule *> ByName;

  RuleIndex() {
    for (const DerivativeRule &R : Rules) {
      if (R.Kind == DerivativeRule::Instruction) {
        ByOpcode[R.Opcode] = &R;
        continue;
      }
      if (R.HasCFunction)
        ByName[R.Name] = &R;
      if (R.IntrinsicID != Intrinsic::not_intrinsic)
        ByIntrinsic[R.IntrinsicID] = &R;
    }
  }
};

const RuleIndex &ruleIndex() {
  static const RuleIndex Index;
  return Index;
}

/// Does the C name agree with the floating-point type it computes in?
/// `sin` must compute in double, `sinf` in float, `sinl` in long double.
bool nameMatchesType(StringRef Name, const DerivativeRule &R, const Type *Ty) {
  if (!Ty->isFloatingPointTy())
    return false;
  if (Name == R.Name)
    return Ty->isDoubleTy();
  if (Name.ends_with("f"))
    return Ty->isFloatTy();
  return Ty->isX86_FP80Ty() || Ty->isFP128Ty() || Ty->isPPC_FP128Ty();
}

} // namespace

bool DerivativeRule::isOperandDifferentiable(unsigned Idx) const {
  return Idx < NumOperands && Partials[Idx];
}

ArrayRef<DerivativeRule> allRules() { return Rules; }

const DerivativeRule *findFunctionRule(StringRef Name) {
  const auto &ByName = ruleIndex().ByName;
  if (auto It = ByName.find(Name); It != ByName.end())
    return It->second;
  if (std::string Helper = complexHelperRuleName(Name); !Helper.empty())
    if (auto It = ByName.find(Helper); It != ByName.end())
      return It->second;
  if (Name.ends_with("f") || Name.ends_with("l"))
    if (auto It = ByName.find(Name.drop_back()); It != ByName.end())
      return It->second;
  return nullptr;
}

const DerivativeRule *findRule(const Instruction &I) {
  const RuleIndex &Index = ruleIndex();
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call) {
    auto It = Index.ByOpcode.find(I.getOpcode());
    return It == Index.ByOpcode.end() ? nullptr : It->second;
  }
  const Function *Callee = Call->getCalledFunction();
  if (!Callee)
    return nullptr;
  const DerivativeRule *R = nullptr;
  if (Intrinsic::ID IID = Callee->getIntrinsicID()) {
    auto It = Index.ByIntrinsic.find(IID);
    R = It == Index.ByIntrinsic.end() ? nullptr : It->second;
  } else if (Callee->isDeclaration()) {
    // Only the C library's own function: a user's `double sin(...)` with a
    // body is differentiated like any other code.
    R = findFunctionRule(Callee->getName());
    // Complex numbers take the C ABI's forms; their formulas count complex
    // arguments.
    if (R && R->Kind == DerivativeRule::ComplexFunction)
      return matchesComplexCall(*R, *Call) ? R : nullptr;
    Type *ArgTy = Call->arg_size() ? Call->getArgOperand(0)->getType() : nullptr;
    if (R && (!ArgTy || !nameMatchesType(Callee->getName(), *R, ArgTy)))
      R = nullptr;
  }
  if (R && R->NumOperands != Call->arg_size())
    return nullptr;
  return R;
}

Value *ruleOperand(const Instruction &I, unsigned Idx) {
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return Call->getArgOperand(Idx);
  return I.getOperand(Idx);
}

/// Seed * Partial. A partial N / D is applied as (Seed / D) * N: a quotient
/// x / y has partials 1 / y (applied as Seed / y) and -r / y, so both
/// operands then share one division, as a hand-written adjoint would (two
/// before, and divisions are the slowest arithmetic a reverse pass does).
rules::Expr applyPartial(const rules::Expr &Seed, const rules::Expr &Partial) {
  auto *Div = dyn_cast_or_null<BinaryOperator>(Partial.value());
  if (!Div || Div->getOpcode() != Instruction::FDiv ||
      isa<Constant>(Div->getOperand(0)) || Seed.value()->getType() !=
                                                Div->getType())
    return Seed * Partial;
  IRBuilderBase &B = Seed.builder();
  return (Seed / rules::Expr(B, Div->getOperand(1))) *
         rules::Expr(B, Div->getOperand(0));
}

void emitOperandAdjoints(const DerivativeRule &R, Instruction &I,
                         Value *Adjoint, IRBuilderBase &B,
                         function_ref<bool(const Value *)> IsActive,
                         function_ref<void(unsigned, Value *)> Accumulate) {
  if (R.Kind == DerivativeRule::ComplexFunction)
    return emitComplexOperandAdjoints(R, cast<CallBase>(I), Adjoint, B,
                                      IsActive, Accumulate);
  rules::Expr Seed(B, Adjoint);
  for (unsigned Idx = 0; Idx != R.NumOperands; ++Idx) {
    if (!IsActive(ruleOperand(I, Idx)))
      continue;
    rules::Expr Partial = emitPartial(R, I, Idx, B);
    if (Partial.isNone())
      continue;
    rules::Expr Contribution = applyPartial(Seed, Partial);
    if (!Contribution.isConstant(0.0))
      Accumulate(Idx, Contribution.value());
  }
}

rules::Expr emitPartial(const DerivativeRule &R, Instruction &I, unsigned Idx,
                        IRBuilderBase &B) {
  if (!R.isOperandDifferentiable(Idx))
    return rules::Expr();
  RuleScope S;
  for (unsigned Op = 0; Op != R.NumOperands; ++Op)
    S.X[Op] = rules::Expr(B, ruleOperand(I, Op));
  S.R = rules::Expr(B, &I);
  if (I.getType()->isFPOrFPVectorTy()) {
    S.One = S.R.constant(1.0);
    S.Zero = S.R.constant(0.0);
  }
  return R.Partials[Idx](S);
}

} // namespace adjoint
