//===- ComplexCalls.cpp - How calls pass complex numbers --------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ComplexCalls.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The precision letter of the compiler's helpers: __mul<letter>c3.
Type *helperElementType(char Letter, LLVMContext &Ctx) {
  switch (Letter) {
  case 's':
    return Type::getFloatTy(Ctx);
  case 'd':
    return Type::getDoubleTy(Ctx);
  case 'x':
    return Type::getX86_FP80Ty(Ctx);
  case 't':
    return Type::getFP128Ty(Ctx);
  default:
    return nullptr;
  }
}

/// Is \p Elt the floating-point type that \p Name (a variant of \p R's
/// name) computes in: cexp in double, cexpf in float, cexpl in long double;
/// __mulsc3 in float, ...?
bool nameMatchesElement(StringRef Name, const DerivativeRule &R, Type *Elt) {
  if (Name.starts_with("__"))
    return Name.size() > 3 &&
           helperElementType(Name[Name.size() - 3], Elt->getContext()) == Elt;
  if (Name == R.Name)
    return Elt->isDoubleTy();
  if (Name.ends_with("f"))
    return Elt->isFloatTy();
  return Elt->isX86_FP80Ty() || Elt->isFP128Ty() || Elt->isPPC_FP128Ty();
}

/// Is \p T a complex number of \p Elt: { Elt, Elt } or <2 x Elt>?
bool isComplexOf(Type *T, Type *Elt) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements() == 2 && VT->getElementType() == Elt;
  auto *ST = dyn_cast<StructType>(T);
  return ST && ST->getNumElements() == 2 && ST->getElementType(0) == Elt &&
         ST->getElementType(1) == Elt;
}

/// How a matching call passes its complex arguments.
struct ComplexCallForm {
  Type *Elt = nullptr;
  bool VectorArgs = false; ///< One <2 x Elt> per argument, else two Elts.
};

std::optional<ComplexCallForm> formOf(const DerivativeRule &R,
                                      const CallBase &Call) {
  if (Call.arg_size() == 0)
    return std::nullopt;
  ComplexCallForm Form;
  Type *First = Call.getArgOperand(0)->getType();
  Form.VectorArgs = First->isVectorTy();
  Form.Elt = First->getScalarType();
  if (!Form.Elt->isFloatingPointTy())
    return std::nullopt;
  unsigned PerArgument = Form.VectorArgs ? 1 : 2;
  if (Call.arg_size() != R.NumOperands * PerArgument)
    return std::nullopt;
  for (const Use &Arg : Call.args()) {
    Type *T = Arg->getType();
    if (Form.VectorArgs ? !isComplexOf(T, Form.Elt) : T != Form.Elt)
      return std::nullopt;
  }
  Type *Ret = Call.getType();
  if (R.Form == DerivativeRule::ToReal ? Ret != Form.Elt
                                       : !isComplexOf(Ret, Form.Elt))
    return std::nullopt;
  return Form;
}

/// The real and imaginary parts of \p V, a pair or a vector of two.
rules::Complex partsOf(Value *V, IRBuilderBase &B) {
  if (V->getType()->isVectorTy())
    return rules::Complex(
        rules::Expr(B, B.CreateExtractElement(V, uint64_t(0))),
        rules::Expr(B, B.CreateExtractElement(V, 1)));
  return rules::Complex(rules::Expr(B, B.CreateExtractValue(V, 0)),
                        rules::Expr(B, B.CreateExtractValue(V, 1)));
}

/// Complex argument \p K of \p Call.
rules::Complex argumentOf(CallBase &Call, const ComplexCallForm &Form,
                          unsigned K, IRBuilderBase &B) {
  if (Form.VectorArgs)
    return partsOf(Call.getArgOperand(K), B);
  return rules::Complex(rules::Expr(B, Call.getArgOperand(2 * K)),
                        rules::Expr(B, Call.getArgOperand(2 * K + 1)));
}

} // namespace

std::string complexHelperRuleName(StringRef Name) {
  // __<op><letter>c3, the letter naming the precision.
  if (!Name.starts_with("__") || !Name.ends_with("c3") || Name.size() < 6 ||
      !StringRef("sdxt").contains(Name[Name.size() - 3]))
    return std::string();
  std::string Double = Name.str();
  Double[Double.size() - 3] = 'd';
  return Double;
}

bool matchesComplexCall(const DerivativeRule &R, const CallBase &Call) {
  std::optional<ComplexCallForm> Form = formOf(R, Call);
  return Form &&
         nameMatchesElement(Call.getCalledFunction()->getName(), R, Form->Elt);
}

void emitComplexOperandAdjoints(
    const DerivativeRule &R, CallBase &Call, Value *Adjoint, IRBuilderBase &B,
    function_ref<bool(const Value *)> IsActive,
    function_ref<void(unsigned, Value *)> Accumulate) {
  std::optional<ComplexCallForm> Form = formOf(R, Call);
  assert(Form && "findRule admits only calls of a form this file knows");
  auto IsActiveArgument = [&](unsigned K) {
    if (Form->VectorArgs)
      return IsActive(Call.getArgOperand(K));
    return IsActive(Call.getArgOperand(2 * K)) ||
           IsActive(Call.getArgOperand(2 * K + 1));
  };

  ComplexRuleScope S;
  for (unsigned K = 0; K != R.NumOperands; ++K)
    S.X[K] = argumentOf(Call, *Form, K, B);
  rules::Expr Zero(B, ConstantFP::get(Form->Elt, 0.0));
  rules::Expr One(B, ConstantFP::get(Form->Elt, 1.0));
  S.One = rules::Complex(One, Zero);
  S.Zero = rules::Complex(Zero, Zero);
  S.IUnit = rules::Complex(Zero, One);
  rules::Complex Seed;
  if (R.Form == DerivativeRule::ToReal) {
    S.RealR = rules::Expr(B, &Call);
    Seed = rules::Complex(rules::Expr(B, Adjoint), Zero);
  } else {
    S.R = partsOf(&Call, B);
    Seed = partsOf(Adjoint, B);
  }

  for (unsigned K = 0; K != R.NumOperands; ++K) {
    if (!IsActiveArgument(K))
      continue;
    rules::Complex Partial = R.ComplexPartials[K](S);
    rules::Complex Share;
    switch (R.Form) {
    case DerivativeRule::Holomorphic:
      Share = conj(Partial) * Seed;
      break;
    case DerivativeRule::Conjugate:
      Share = Partial * conj(Seed);
      break;
    case DerivativeRule::ToReal:
      Share = Partial * Seed.re();
      break;
    }
    if (Form->VectorArgs) {
      Type *VT = Call.getArgOperand(K)->getType();
      Value *V = B.CreateInsertElement(PoisonValue::get(VT),
                                       Share.re().value(), uint64_t(0));
      Accumulate(K, B.CreateInsertElement(V, Share.im().value(), 1));
      continue;
    }
    for (unsigned Part = 0; Part != 2; ++Part) {
      const rules::Expr &E = Part == 0 ? Share.re() : Share.im();
      if (IsActive(Call.getArgOperand(2 * K + Part)) && !E.isConstant(0.0))
        Accumulate(2 * K + Part, E.value());
    }
  }
}

} // namespace adjoint
