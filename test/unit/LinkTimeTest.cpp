//===- LinkTimeTest.cpp - Which half of an LTO build ------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Support/LinkTime.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace adjoint;

namespace {

// The flags as clang 19 writes them (test/LTO checks the real thing).
TEST(LinkTime, KindFromClangModuleFlags) {
  LLVMContext Ctx;
  Module Plain("plain", Ctx);
  EXPECT_EQ(getLTOKind(Plain), LTOKind::None);

  Module Full("full", Ctx);
  Full.addModuleFlag(Module::Error, "ThinLTO", 0u);
  Full.addModuleFlag(Module::Error, "EnableSplitLTOUnit", 1u);
  EXPECT_EQ(getLTOKind(Full), LTOKind::Full);

  Module Thin("thin", Ctx);
  Thin.addModuleFlag(Module::Error, "EnableSplitLTOUnit", 0u);
  EXPECT_EQ(getLTOKind(Thin), LTOKind::Thin);
}

} // namespace
