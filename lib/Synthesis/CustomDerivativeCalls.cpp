//===- CustomDerivativeCalls.cpp - Calling registered derivatives -----------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CustomDerivativeCalls.h"

#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace adjoint {

namespace {

/// Parameters of these types are followed by a tangent.
bool takesTangent(const Type *T) {
  return isFloatAggregate(T) || T->isPointerTy();
}

/// The type of the tangent f returns, or void.
Type *tangentReturnType(const Function &F) {
  Type *Ret = F.getReturnType();
  return isFloatAggregate(Ret) ? Ret : Type::getVoidTy(F.getContext());
}

/// Can \p D be called with the arguments of \p F, a tangent after those of
/// \p Slots? Its result is used only when F returns a tangent.
bool accepts(const Function &D, const Function &F, ArrayRef<bool> Slots) {
  FunctionType *DT = D.getFunctionType();
  if (DT->isVarArg())
    return false;
  SmallVector<Type *, 8> Params;
  for (const Argument &A : F.args()) {
    Params.push_back(A.getType());
    if (Slots[A.getArgNo()])
      Params.push_back(A.getType());
  }
  if (DT->params() != ArrayRef<Type *>(Params))
    return false;
  Type *Ret = tangentReturnType(F);
  return Ret->isVoidTy() || DT->getReturnType() == Ret;
}

/// `double f_fwd(double x, double dx)`: the signature \p D must have to be
/// called with \p F's arguments and the tangents of \p Slots.
std::string expectedSignature(const Function &F, const Function &D,
                              ArrayRef<bool> Slots) {
  // Only the name of a C++ function, without its parameter list.
  std::string Name = demangle(D.getName());
  std::string S = describeCType(tangentReturnType(F)) + " " +
                  Name.substr(0, Name.find('(')) + "(";
  for (const Argument &A : F.args()) {
    // Clang drops value names; number the parameters when there are several.
    std::string Name = A.hasName() ? A.getName().str()
                       : F.arg_size() == 1
                           ? std::string("x")
                           : "x" + std::to_string(A.getArgNo() + 1);
    std::string Type = describeCType(A.getType());
    auto Param = [&](StringRef N) {
      S += (S.back() == '(' ? "" : ", ") + Type +
           (Type.back() == '*' ? "" : " ") + N.str();
    };
    Param(Name);
    if (Slots[A.getArgNo()])
      Param("d" + Name);
  }
  return S + ")";
}

} // namespace

std::optional<TangentSlots>
matchCustomDerivative(const CallBase &Call, const CustomForwardDerivative &C,
                      function_ref<bool(const Value *)> IsActive,
                      const Twine &Context) {
  const Function &F = *Call.getCalledFunction();
  const Function &D = *C.Derivative;
  TangentSlots All, Active;
  for (const Argument &A : F.args()) {
    All.push_back(takesTangent(A.getType()));
    Active.push_back(All.back() && IsActive(Call.getArgOperand(A.getArgNo())));
  }
  std::string Registered = "the custom derivative '" + demangle(D.getName()) +
                           "' that '" + C.Registration->getName().str() +
                           "' registers for '" + demangle(F.getName()) + "'";
  if (accepts(D, F, All)) {
    // A pointer that leads to no derivatives has no shadow to pass (a
    // floating-point value's tangent is simply zero).
    for (const Argument &A : F.args()) {
      const Value *Arg = Call.getArgOperand(A.getArgNo());
      if (!A.getType()->isPointerTy() || IsActive(Arg) ||
          isa<ConstantPointerNull>(Arg))
        continue;
      reportError(Call, Registered + " takes a shadow for parameter " +
                            Twine(A.getArgNo() + 1) +
                            ", but the pointer passed here leads to no "
                            "derivatives and has no shadow; declare it as '" +
                            expectedSignature(F, D, Active) + "'" + Context);
      return std::nullopt;
    }
    return All;
  }
  if (accepts(D, F, Active))
    return Active;
  std::string Alternative;
  if (Active != All)
    Alternative = " (or, at this call, where only some arguments carry "
                  "derivatives, '" +
                  expectedSignature(F, D, Active) + "')";
  reportError(Call, Registered + " has type '" +
                        describeType(D.getFunctionType()) +
                        "', but forward mode calls it as '" +
                        expectedSignature(F, D, All) + "'" + Alternative +
                        ": the arguments of '" + demangle(F.getName()) +
                        "', each floating-point value and pointer followed by "
                        "its tangent, returning the tangent of its result" +
                        Context);
  return std::nullopt;
}

} // namespace adjoint
