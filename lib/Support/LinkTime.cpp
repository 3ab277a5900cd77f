//===- LinkTime.cpp - Which half of an LTO build ----------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Support/LinkTime.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

LTOKind getLTOKind(const Module &M) {
  if (auto *ThinLTO =
          mdconst::extract_or_null<ConstantInt>(M.getModuleFlag("ThinLTO")))
    return ThinLTO->isZero() ? LTOKind::Full : LTOKind::Thin;
  // clang marks ThinLTO bitcode only by the split-unit flag.
  return M.getModuleFlag("EnableSplitLTOUnit") ? LTOKind::Thin
                                               : LTOKind::None;
}

} // namespace adjoint
