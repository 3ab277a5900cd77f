//===- ComplexCalls.h - How calls pass complex numbers ----------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The complex functions of the rule table take and return complex numbers
// in whatever form the C ABI gives them: on x86-64, `double complex` as two
// doubles and a { double, double } result, `float complex` as one
// <2 x float> (but __mulsc3 takes four floats), `long double complex` in
// memory, which is not supported. This file maps a call onto its complex
// arguments and result, and the complex adjoints back onto its operands.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RULES_COMPLEXCALLS_H
#define ADJOINT_LIB_RULES_COMPLEXCALLS_H

#include "adjoint/Rules/DerivativeRules.h"

namespace adjoint {

/// Does \p Call pass and return complex numbers in a form this file
/// understands, with the element type the callee's name says (cexpf:
/// float)? findRule maps complex calls to their rules only then.
bool matchesComplexCall(const DerivativeRule &R, const llvm::CallBase &Call);

/// emitOperandAdjoints for a rule of kind ComplexFunction.
void emitComplexOperandAdjoints(
    const DerivativeRule &R, llvm::CallBase &Call, llvm::Value *Adjoint,
    llvm::IRBuilderBase &B,
    llvm::function_ref<bool(const llvm::Value *)> IsActive,
    llvm::function_ref<void(unsigned OperandIdx, llvm::Value *Share)>
        Accumulate);

/// The table's name for the compiler's complex arithmetic helper \p Name:
/// __mulsc3, __mulxc3 and __multc3 are named __muldc3 there. Empty for
/// other names.
std::string complexHelperRuleName(llvm::StringRef Name);

} // namespace adjoint

#endif // ADJOINT_LIB_RULES_COMPLEXCALLS_H
