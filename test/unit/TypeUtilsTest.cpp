//===- TypeUtilsTest.cpp - Which types carry derivatives --------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Support/TypeUtils.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace adjoint;

namespace {

TEST(TypeUtils, FloatAggregates) {
  LLVMContext Ctx;
  Type *D = Type::getDoubleTy(Ctx);
  Type *I = Type::getInt32Ty(Ctx);
  EXPECT_TRUE(isFloatAggregate(D));
  EXPECT_TRUE(isFloatAggregate(FixedVectorType::get(D, 2)));
  EXPECT_TRUE(isFloatAggregate(StructType::get(Ctx, {D, Type::getFloatTy(Ctx)})));
  EXPECT_FALSE(isFloatAggregate(StructType::get(Ctx, {D, I})));
  EXPECT_FALSE(isFloatAggregate(StructType::get(Ctx, {})));
  EXPECT_TRUE(containsFloat(StructType::get(Ctx, {D, I})));
  EXPECT_FALSE(containsFloat(I));
  EXPECT_FALSE(containsFloat(PointerType::get(Ctx, 0)));
}

TEST(TypeUtils, FlattenLeaves) {
  LLVMContext Ctx;
  Type *D = Type::getDoubleTy(Ctx);
  Type *F = Type::getFloatTy(Ctx);
  SmallVector<Type *, 4> Leaves;
  flattenLeaves(StructType::get(Ctx, {D, FixedVectorType::get(F, 2)}), Leaves);
  ASSERT_EQ(Leaves.size(), 3u);
  EXPECT_EQ(Leaves[0], D);
  EXPECT_EQ(Leaves[1], F);
  EXPECT_EQ(Leaves[2], F);
  Leaves.clear();
  flattenLeaves(Type::getVoidTy(Ctx), Leaves);
  EXPECT_TRUE(Leaves.empty());
}

} // namespace
