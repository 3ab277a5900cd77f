//===- TypeTreeTest.cpp - The type-tree lattice ----------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TypeTree is the lattice the type analysis computes in. Its operations must
// be joins (monotone, closed, order-independent), or the fixed point is
// wrong or does not terminate; and its offset algebra (shift, only,
// dereference, repeat, patterns and -1) is what turns GEPs, loads and
// arrays into types. Each test states the expected tree in the printed
// form, which is also what print<adjoint-types> shows.
//
//===----------------------------------------------------------------------===//

#include "adjoint/TypeAnalysis/TypeTree.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Type.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace adjoint;

namespace {

using CT = ConcreteType;
using Offset = TypeTree::Offset;

/// x86-64 Linux.
const DataLayout &x86_64() {
  static const DataLayout DL("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-"
                             "i128:128-f80:128-n8:16:32:64-S128");
  return DL;
}

/// A tree from (path, type) pairs; -1 in a path is every offset.
TypeTree tree(std::initializer_list<std::pair<std::vector<int64_t>, CT>> Es) {
  TypeTree T;
  for (const auto &E : Es)
    T.insert(ArrayRef<int64_t>(E.first), E.second);
  return T;
}

TEST(ConcreteTypeTest, JoinIsALattice) {
  const CT All[] = {CT::Unknown, CT::Integer, CT::Pointer, CT::Half,
                    CT::Float,   CT::Double,  CT::X86_FP80, CT::FP128,
                    CT::Anything};
  for (CT A : All) {
    // Unknown is the bottom, Anything the top.
    EXPECT_EQ(CT::join(A, CT::Unknown), A);
    EXPECT_EQ(CT::join(A, CT::Anything), CT(CT::Anything));
    EXPECT_EQ(CT::join(A, A), A);
    for (CT B : All) {
      EXPECT_EQ(CT::join(A, B), CT::join(B, A));
      EXPECT_TRUE(CT::join(A, B).covers(A));
      EXPECT_TRUE(CT::join(A, B).covers(B));
    }
  }
  // The kinds in between are incomparable.
  EXPECT_EQ(CT::join(CT::Double, CT::Float), CT(CT::Anything));
  EXPECT_EQ(CT::join(CT::Integer, CT::Pointer), CT(CT::Anything));
  EXPECT_FALSE(CT(CT::Double).covers(CT::Float));

  CT T = CT::Unknown;
  EXPECT_TRUE(T.joinWith(CT::Double));
  EXPECT_FALSE(T.joinWith(CT::Double));
  EXPECT_TRUE(T.joinWith(CT::Integer));
  EXPECT_EQ(T, CT(CT::Anything));
}

TEST(ConcreteTypeTest, IRTypesStateFloatsAndPointersOnly) {
  LLVMContext Ctx;
  EXPECT_EQ(CT::fromIRType(Type::getDoubleTy(Ctx)), CT(CT::Double));
  EXPECT_EQ(CT::fromIRType(Type::getHalfTy(Ctx)), CT(CT::Half));
  EXPECT_EQ(CT::fromIRType(Type::getX86_FP80Ty(Ctx)), CT(CT::X86_FP80));
  EXPECT_EQ(CT::fromIRType(PointerType::get(Ctx, 0)), CT(CT::Pointer));
  // An i64 may be a copied double: the type says nothing.
  EXPECT_EQ(CT::fromIRType(Type::getInt64Ty(Ctx)), CT(CT::Unknown));
  EXPECT_EQ(CT(CT::Float).getIRType(Ctx), Type::getFloatTy(Ctx));
  EXPECT_EQ(CT(CT::Integer).getIRType(Ctx), nullptr);
}

TEST(ConcreteTypeTest, SizesFollowTheDataLayout) {
  EXPECT_EQ(CT(CT::Double).getSizeInBytes(x86_64()), 8u);
  EXPECT_EQ(CT(CT::Float).getSizeInBytes(x86_64()), 4u);
  EXPECT_EQ(CT(CT::Pointer).getSizeInBytes(x86_64()), 8u);
  EXPECT_EQ(CT(CT::X86_FP80).getSizeInBytes(x86_64()), 16u);
  EXPECT_EQ(CT(CT::Integer).getSizeInBytes(x86_64()), 1u);
  // i386: 32-bit pointers, long double aligned to 4 bytes.
  DataLayout I386("e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-"
                  "f64:32:64-f80:32-n8:16:32-S128");
  EXPECT_EQ(CT(CT::Pointer).getSizeInBytes(I386), 4u);
  EXPECT_EQ(CT(CT::X86_FP80).getSizeInBytes(I386), 12u);
}

TEST(TypeTreeTest, PrintsInPathOrder) {
  TypeTree T = tree({{{8, 0}, CT::Double},
                     {{8}, CT::Pointer},
                     {{0}, CT::Double},
                     {{}, CT::Pointer}});
  EXPECT_EQ(T.str(), "{[]:Pointer, [0]:Double, [8]:Pointer, [8, 0]:Double}");
  EXPECT_EQ(TypeTree().str(), "{}");
}

TEST(TypeTreeTest, PrintsIntegerBytesAsRanges) {
  TypeTree T;
  T.insertIntegerBytes(8, 4);
  T.insert({Offset::exact(0)}, CT::Double);
  EXPECT_EQ(T.str(), "{[0]:Double, [8..11]:Integer}");
  // Doubles one byte apart are not a range.
  TypeTree D = tree({{{0}, CT::Double}, {{1}, CT::Double}});
  EXPECT_EQ(D.str(), "{[0]:Double, [1]:Double}");
}

TEST(TypeTreeTest, InsertJoinsAndReportsChange) {
  TypeTree T;
  EXPECT_TRUE(T.insert({0}, CT::Double));
  EXPECT_FALSE(T.insert({0}, CT::Double));
  EXPECT_FALSE(T.insert({0}, CT::Unknown));
  EXPECT_EQ(T.lookup({0}), CT(CT::Double));
  // A union: the same byte used as double and integer.
  EXPECT_TRUE(T.insert({0}, CT::Integer));
  EXPECT_EQ(T.lookup({0}), CT(CT::Anything));
  EXPECT_FALSE(T.insert({0}, CT::Double));
  EXPECT_EQ(T.lookup({8}), CT(CT::Unknown));
  EXPECT_EQ(T.lookup({}), CT(CT::Unknown));
}

TEST(TypeTreeTest, MergeIsClosedAndOrderIndependent) {
  TypeTree A = tree({{{}, CT::Pointer}, {{0}, CT::Double}, {{8}, CT::Float}});
  TypeTree B = tree({{{}, CT::Pointer}, {{8}, CT::Integer}, {{16}, CT::Double}});
  TypeTree AB = A, BA = B;
  EXPECT_TRUE(AB.merge(B));
  EXPECT_TRUE(BA.merge(A));
  EXPECT_EQ(AB, BA);
  EXPECT_EQ(AB.str(),
            "{[]:Pointer, [0]:Double, [8]:Anything, [16]:Double}");
  // Idempotent: merging again changes nothing.
  EXPECT_FALSE(AB.merge(B));
  EXPECT_FALSE(AB.merge(A));
  EXPECT_FALSE(AB.merge(AB));
  EXPECT_FALSE(AB.merge(TypeTree()));
}

TEST(TypeTreeTest, MergeWithPatternsIsOrderIndependent) {
  TypeTree A = tree({{{0}, CT::Double}, {{40}, CT::Integer}});
  TypeTree B;
  B.insert({Offset::pattern(8, 0)}, CT::Double);
  TypeTree AB = A, BA = B;
  AB.merge(B);
  BA.merge(A);
  EXPECT_EQ(AB, BA);
  // [0] is implied by the pattern; [40] conflicts with it.
  EXPECT_EQ(AB.str(), "{[8n]:Double, [40]:Anything}");
  EXPECT_EQ(AB.lookup({16}), CT(CT::Double));
  EXPECT_EQ(AB.lookup({40}), CT(CT::Anything));
  EXPECT_EQ(AB.lookup({4}), CT(CT::Unknown));
}

TEST(TypeTreeTest, LookupFollowsPaths) {
  TypeTree T = tree({{{}, CT::Pointer},
                     {{0}, CT::Pointer},
                     {{0, 16}, CT::Double},
                     {{8}, CT::Integer}});
  EXPECT_EQ(T.getRoot(), CT(CT::Pointer));
  EXPECT_EQ(T.lookup({0}), CT(CT::Pointer));
  EXPECT_EQ(T.lookup({0, 16}), CT(CT::Double));
  EXPECT_EQ(T.lookup({0, 8}), CT(CT::Unknown));
  EXPECT_EQ(T.lookup({16, 0}), CT(CT::Unknown));
}

TEST(TypeTreeTest, EveryOffsetAppliesToEachOffset) {
  // [-1] is every offset; an exact entry of the same type is implied by it,
  // one of another type makes that offset Anything.
  TypeTree T = tree({{{8}, CT::Double}});
  EXPECT_TRUE(T.insert({-1}, CT::Double));
  EXPECT_EQ(T.str(), "{[-1]:Double}");
  EXPECT_FALSE(T.insert({24}, CT::Double));
  EXPECT_TRUE(T.insert({16}, CT::Integer));
  EXPECT_EQ(T.str(), "{[-1]:Double, [16]:Anything}");
  EXPECT_EQ(T.lookup({16}), CT(CT::Anything));
  EXPECT_EQ(T.lookup({1000}), CT(CT::Double));
  // -1 in a lookup asks for what holds at every offset.
  EXPECT_EQ(T.lookup({-1}), CT(CT::Double));
  EXPECT_EQ(tree({{{0}, CT::Double}}).lookup({-1}), CT(CT::Unknown));
}

TEST(TypeTreeTest, EveryOffsetOfOtherTypeSubsumesExactEntries) {
  // Inserting [-1] after conflicting exact entries: they become Anything,
  // same-typed ones disappear.
  TypeTree T = tree({{{0}, CT::Integer}, {{8}, CT::Double}, {{0, 0}, CT::Float}});
  EXPECT_TRUE(T.insert({-1}, CT::Double));
  EXPECT_EQ(T.str(), "{[-1]:Double, [0]:Anything, [0, 0]:Float}");
}

TEST(TypeTreeTest, PatternsCollapseToEveryOffset) {
  // An array of ints, seen through a stride of 4: every byte is Integer.
  TypeTree T;
  for (int64_t B = 0; B != 4; ++B)
    T.insert({Offset::pattern(4, B)}, CT::Integer);
  EXPECT_EQ(T.str(), "{[-1]:Integer}");
  // Not all residues: stays a pattern, printed as a range.
  TypeTree U;
  for (int64_t B = 0; B != 4; ++B)
    U.insert({Offset::pattern(16, B)}, CT::Integer);
  U.insert({Offset::pattern(16, 8)}, CT::Double);
  EXPECT_EQ(U.str(), "{[16n+0..3]:Integer, [16n+8]:Double}");
}

TEST(TypeTreeTest, ShiftMovesFirstLevelOffsets) {
  TypeTree T = tree({{{}, CT::Pointer},
                     {{0}, CT::Integer},
                     {{8}, CT::Double},
                     {{16}, CT::Pointer},
                     {{16, 0}, CT::Float}});
  // p + 8: what was at 8 is at 0; bytes before p + 8 are dropped; the
  // pointee of the pointer field keeps its own offsets.
  EXPECT_EQ(T.shift(8).str(),
            "{[]:Pointer, [0]:Double, [8]:Pointer, [8, 0]:Float}");
  // The inverse direction (p from p + 8) moves up.
  EXPECT_EQ(T.shift(8).shift(-8).str(),
            "{[]:Pointer, [8]:Double, [16]:Pointer, [16, 0]:Float}");
  // A window: only the bytes an 8-byte access at p + 8 touches.
  EXPECT_EQ(T.shift(8, 8).str(), "{[]:Pointer, [0]:Double}");
  EXPECT_EQ(T.shift(0).str(), T.str());
}

TEST(TypeTreeTest, ShiftRebasesPatterns) {
  TypeTree T;
  T.insert({Offset::pattern(16, 8)}, CT::Double);
  T.insertIntegerBytes(0, 4);
  T = T.repeat(16);
  EXPECT_EQ(T.str(), "{[16n+0..3]:Integer, [16n+8]:Double}");
  // p + 24 is the double of the element at 16.
  EXPECT_EQ(T.shift(24).str(), "{[16n]:Double, [16n+8..11]:Integer}");
  // A small window of a pattern becomes exact entries...
  EXPECT_EQ(T.shift(8, 16).str(), "{[0]:Double, [8..11]:Integer}");
  // ...a large one stays an array.
  EXPECT_EQ(T.shift(0, 1 << 20).str(), T.str());
}

TEST(TypeTreeTest, OnlyAndDereferenceAreInverse) {
  TypeTree P = tree({{{}, CT::Pointer}, {{0}, CT::Double}, {{8}, CT::Double}});
  // Memory holding P at offset 16.
  TypeTree M = P.only(16);
  EXPECT_EQ(M.str(), "{[16]:Pointer, [16, 0]:Double, [16, 8]:Double}");
  EXPECT_EQ(M.dereference(16), P);
  EXPECT_TRUE(M.dereference(8).empty());
  // A scalar value's tree: a double stored at 0.
  EXPECT_EQ(TypeTree::ofRoot(CT::Double).only(0).str(), "{[0]:Double}");
  EXPECT_EQ(TypeTree::ofRoot(CT::Double).only(0).dereference(0).str(),
            "{[]:Double}");
}

TEST(TypeTreeTest, DereferenceReadsThroughPatterns) {
  // An array of pointers to arrays of doubles, loaded at element 3.
  TypeTree T;
  T.insert({Offset::pattern(8, 0)}, CT::Pointer);
  T.insert({Offset::pattern(8, 0), Offset::pattern(8, 0)}, CT::Double);
  EXPECT_EQ(T.dereference(24).str(), "{[]:Pointer, [8n]:Double}");
  EXPECT_TRUE(T.dereference(4).empty());
}

TEST(TypeTreeTest, RepeatMakesArrays) {
  TypeTree T = tree({{{}, CT::Pointer}, {{8}, CT::Double}, {{8, 0}, CT::Float}});
  // p + i * 16: the double of every element, its pointee untouched.
  EXPECT_EQ(T.repeat(16).str(),
            "{[]:Pointer, [16n+8]:Double, [16n+8, 0]:Float}");
  // Offsets beyond the stride fold into it.
  EXPECT_EQ(tree({{{24}, CT::Double}}).repeat(16).str(), "{[16n+8]:Double}");
  // Two strides: the gcd.
  EXPECT_EQ(T.repeat(16).repeat(24).str(),
            "{[]:Pointer, [8n]:Double, [8n, 0]:Float}");
  // Stride 1 is every offset.
  EXPECT_EQ(T.repeat(1).str(), "{[]:Pointer, [-1]:Double, [-1, 0]:Float}");
  // A struct whose fields alias under the stride: conflict.
  EXPECT_EQ(tree({{{0}, CT::Double}, {{8}, CT::Integer}}).repeat(8).str(),
            "{[8n]:Anything}");
  // Repeating is idempotent.
  EXPECT_EQ(T.repeat(16).repeat(16), T.repeat(16));
}

TEST(TypeTreeTest, MeetOfPatternAndExactOffsets) {
  TypeTree T;
  T.insert({Offset::pattern(16, 8)}, CT::Double);
  // Implied by the pattern: no change.
  EXPECT_FALSE(T.insert({24}, CT::Double));
  EXPECT_FALSE(T.insert({Offset::pattern(32, 8)}, CT::Double));
  // Not on the pattern: a new entry.
  EXPECT_TRUE(T.insert({0}, CT::Integer));
  // On the pattern with another type: Anything there only.
  EXPECT_TRUE(T.insert({40}, CT::Float));
  EXPECT_EQ(T.str(), "{[0]:Integer, [16n+8]:Double, [40]:Anything}");
  EXPECT_EQ(T.lookup({56}), CT(CT::Double));
  // A coarser pattern subsumes the finer one.
  EXPECT_TRUE(T.insert({Offset::pattern(8, 0)}, CT::Double));
  EXPECT_EQ(T.str(), "{[0]:Anything, [8n]:Double, [40]:Anything}");
}

TEST(TypeTreeTest, OffsetContainment) {
  Offset P = Offset::pattern(16, 8);
  EXPECT_TRUE(P.contains(int64_t(8)));
  EXPECT_TRUE(P.contains(int64_t(40)));
  EXPECT_FALSE(P.contains(int64_t(16)));
  EXPECT_FALSE(P.contains(int64_t(-8)));
  EXPECT_TRUE(P.contains(Offset::pattern(32, 24)));
  EXPECT_FALSE(P.contains(Offset::pattern(8, 0)));
  EXPECT_TRUE(Offset::every().contains(P));
  EXPECT_EQ(Offset::pattern(16, -8), P);
  EXPECT_EQ(Offset::pattern(1, 5), Offset::every());
}

TEST(TypeTreeTest, BytesInsideFloats) {
  // A double at 8 covers bytes 8..15; a pointer its 8 bytes; an x86_fp80
  // its 16 (with padding).
  TypeTree T = tree({{{8}, CT::Double}, {{16}, CT::Pointer}, {{32}, CT::X86_FP80}});
  const DataLayout &DL = x86_64();
  EXPECT_EQ(T.typeAtByte({}, 7, DL), CT(CT::Unknown));
  EXPECT_EQ(T.typeAtByte({}, 8, DL), CT(CT::Double));
  EXPECT_EQ(T.typeAtByte({}, 15, DL), CT(CT::Double));
  EXPECT_EQ(T.typeAtByte({}, 23, DL), CT(CT::Pointer));
  EXPECT_EQ(T.typeAtByte({}, 47, DL), CT(CT::X86_FP80));
  EXPECT_EQ(T.typeAtByte({}, 48, DL), CT(CT::Unknown));
  // Through a pattern: byte 44 is inside the double at 40.
  TypeTree A;
  A.insert({Offset::pattern(16, 8)}, CT::Double);
  EXPECT_EQ(A.typeAtByte({}, 44, DL), CT(CT::Double));
  EXPECT_EQ(A.typeAtByte({}, 50, DL), CT(CT::Unknown));
  // One level down: the pointer at 16 points to a float at 4.
  T.insert({16, 4}, CT::Float);
  EXPECT_EQ(T.typeAtByte({16}, 6, DL), CT(CT::Float));
  EXPECT_EQ(T.typeAtByte({16}, 0, DL), CT(CT::Unknown));
}

TEST(TypeTreeTest, ByteSegmentsOfAStruct) {
  // struct { int id; double w; float s; } with padding.
  TypeTree T;
  T.insertIntegerBytes(0, 4);
  T.insert({8}, CT::Double);
  T.insert({16}, CT::Float);
  SmallVector<TypeSegment, 4> Segs;
  T.byteSegments({}, 0, 24, x86_64(), Segs);
  std::vector<TypeSegment> Expected = {{0, 4, CT::Integer},
                                       {4, 4, CT::Unknown},
                                       {8, 8, CT::Double},
                                       {16, 4, CT::Float},
                                       {20, 4, CT::Unknown}};
  EXPECT_EQ(std::vector<TypeSegment>(Segs.begin(), Segs.end()), Expected);
  // A window starting inside the double.
  Segs.clear();
  T.byteSegments({}, 12, 6, x86_64(), Segs);
  Expected = {{12, 4, CT::Double}, {16, 2, CT::Float}};
  EXPECT_EQ(std::vector<TypeSegment>(Segs.begin(), Segs.end()), Expected);
}

TEST(TypeTreeTest, ByteSegmentsOfArraysAndConflicts) {
  const DataLayout &DL = x86_64();
  // Adjacent doubles of an array are one run.
  TypeTree A;
  A.insert({Offset::pattern(8, 0)}, CT::Double);
  SmallVector<TypeSegment, 4> Segs;
  A.byteSegments({}, 0, 64, DL, Segs);
  ASSERT_EQ(Segs.size(), 1u);
  EXPECT_EQ(Segs[0], (TypeSegment{0, 64, CT::Double}));
  // Every offset a double: still all Double.
  Segs.clear();
  tree({{{-1}, CT::Double}}).byteSegments({}, 3, 10, DL, Segs);
  ASSERT_EQ(Segs.size(), 1u);
  EXPECT_EQ(Segs[0], (TypeSegment{3, 10, CT::Double}));
  // A float inside a double: the overlap is Anything.
  Segs.clear();
  tree({{{0}, CT::Double}, {{4}, CT::Float}}).byteSegments({}, 0, 8, DL, Segs);
  std::vector<TypeSegment> Expected = {{0, 4, CT::Double},
                                       {4, 4, CT::Anything}};
  EXPECT_EQ(std::vector<TypeSegment>(Segs.begin(), Segs.end()), Expected);
}

TEST(TypeTreeTest, FromIRTypes) {
  LLVMContext Ctx;
  const DataLayout &DL = x86_64();
  Type *I32 = Type::getInt32Ty(Ctx), *F64 = Type::getDoubleTy(Ctx);
  Type *F32 = Type::getFloatTy(Ctx), *Ptr = PointerType::get(Ctx, 0);
  EXPECT_EQ(TypeTree::fromIRType(F64, DL).str(), "{[]:Double}");
  EXPECT_EQ(TypeTree::fromIRType(Ptr, DL).str(), "{[]:Pointer}");
  EXPECT_EQ(TypeTree::fromIRType(Type::getInt64Ty(Ctx), DL).str(), "{}");
  // { i32, [3 x double], float, ptr }: fields at their layout offsets; the
  // integer says nothing.
  auto *Item = StructType::get(Ctx, {I32, ArrayType::get(F64, 3), F32, Ptr});
  EXPECT_EQ(TypeTree::fromIRType(Item, DL).str(),
            "{[8]:Double, [16]:Double, [24]:Double, [32]:Float, [40]:Pointer}");
  EXPECT_EQ(TypeTree::fromMemoryType(F64, DL).str(), "{[0]:Double}");
  EXPECT_EQ(TypeTree::fromIRType(FixedVectorType::get(F32, 2), DL).str(),
            "{[0]:Float, [4]:Float}");
  // A large array is an array.
  EXPECT_EQ(TypeTree::fromMemoryType(ArrayType::get(Item, 100), DL).str(),
            "{[48n+8]:Double, [48n+16]:Double, [48n+24]:Double, "
            "[48n+32]:Float, [48n+40]:Pointer}");
  EXPECT_TRUE(TypeTree::usesRoot(F64));
  EXPECT_FALSE(TypeTree::usesRoot(I32));
  EXPECT_FALSE(TypeTree::usesRoot(Item));
}

TEST(TypeTreeTest, CapsDropInsteadOfGuessing) {
  // Paths deeper than MaxDepth are dropped.
  std::vector<int64_t> Deep(TypeTree::MaxDepth + 1, 0);
  TypeTree T;
  EXPECT_FALSE(T.insert(ArrayRef<int64_t>(Deep), CT::Double));
  EXPECT_TRUE(T.empty());
  Deep.pop_back();
  EXPECT_TRUE(T.insert(ArrayRef<int64_t>(Deep), CT::Double));
  // only() drops what would become too deep.
  EXPECT_TRUE(T.only(0).empty());
  // At most MaxEntries entries.
  TypeTree Big;
  for (int64_t I = 0; I != TypeTree::MaxEntries + 10; ++I)
    Big.insert({I * 8}, CT::Double);
  EXPECT_EQ(Big.size(), size_t(TypeTree::MaxEntries));
}

TEST(TypeTreeTest, Extent) {
  int64_t End, Period;
  TypeTree T = tree({{{}, CT::Pointer}, {{8}, CT::Double}, {{0}, CT::Integer}});
  T.extent(x86_64(), End, Period);
  EXPECT_EQ(End, 16);
  EXPECT_EQ(Period, 0);
  TypeTree A;
  A.insert({Offset::pattern(16, 8)}, CT::Double);
  A.insert({Offset::pattern(24, 0)}, CT::Double);
  A.extent(x86_64(), End, Period);
  EXPECT_EQ(End, 0);
  EXPECT_EQ(Period, 48);
}

} // namespace
