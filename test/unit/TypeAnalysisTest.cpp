//===- TypeAnalysisTest.cpp - Type trees of functions ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The type analysis decides which bytes synthesis treats as floats. A byte
// it wrongly calls an integer loses a derivative; one it cannot decide makes
// synthesis report an error. Each test parses a small module in the shape
// that clang -O2 produces for a C construct and checks the trees and the
// byte queries that matter, with the reason in the comments.
//
//===----------------------------------------------------------------------===//

#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace llvm;
using namespace adjoint;

namespace {

using CT = ConcreteType;

class TypeAnalysisTest : public ::testing::Test {
protected:
  /// Parses \p IR (x86-64 data layout), or fails the test.
  bool parse(const char *IR) {
    std::string Full =
        std::string("target datalayout = \"e-m:e-p270:32:32-p271:32:32-"
                    "p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\n"
                    "target triple = \"x86_64-unknown-linux-gnu\"\n") +
        IR;
    SMDiagnostic Err;
    M = parseAssemblyString(Full, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("TypeAnalysisTest", OS);
      ADD_FAILURE() << Msg;
      return false;
    }
    return true;
  }

  /// Analyzes @\p Name with the trees its IR types state.
  const FunctionTypeInfo &analyze(StringRef Name) {
    return Analyzer.analyze(*M->getFunction(Name));
  }

  /// The printed tree of the argument or instruction %\p Value of @\p Fn.
  std::string treeOf(const FunctionTypeInfo &Info, StringRef Value) {
    return Info.getTree(named(Info.getFunction(), Value)).str();
  }

  static const Value *named(const Function &F, StringRef Name) {
    for (const Argument &A : F.args())
      if (A.getName() == Name)
        return &A;
    for (const Instruction &I : instructions(F))
      if (I.getName() == Name)
        return &I;
    ADD_FAILURE() << "no value %" << Name.str();
    return nullptr;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  TypeAnalyzer Analyzer;
};

TEST_F(TypeAnalysisTest, StructWithMixedFields) {
  // struct { int id; double w; float s; } *p: the fields' own accesses say
  // what each holds; the padding stays Unknown.
  ASSERT_TRUE(parse(R"IR(
    %struct.S = type { i32, double, float }
    define double @f(ptr %p) {
      %id = load i32, ptr %p
      %idm = mul i32 %id, 7
      %w.p = getelementptr inbounds %struct.S, ptr %p, i64 0, i32 1
      %w = load double, ptr %w.p
      %s.p = getelementptr inbounds %struct.S, ptr %p, i64 0, i32 2
      %s = load float, ptr %s.p
      %sd = fpext float %s to double
      %r = fmul double %w, %sd
      ret double %r
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_TRUE(Info.isComplete());
  EXPECT_EQ(treeOf(Info, "p"),
            "{[]:Pointer, [0..3]:Integer, [8]:Double, [16]:Float}");
  EXPECT_EQ(treeOf(Info, "w.p"), "{[]:Pointer, [0]:Double, [8]:Float}");
  EXPECT_EQ(treeOf(Info, "id"), "{[0..3]:Integer}");

  const Value *P = named(Info.getFunction(), "p");
  ByteSummary Whole = Info.queryPointee(P, 0, 20);
  EXPECT_EQ(Whole.str(),
            "[0,4):Integer [4,8):Unknown [8,16):Double [16,20):Float");
  EXPECT_EQ(Whole.getClass(), ByteSummary::Undecided);
  ASSERT_EQ(Whole.undecided().size(), 1u);
  EXPECT_EQ(Whole.undecided()[0], (TypeSegment{4, 4, CT::Unknown}));
  EXPECT_EQ(Whole.getFloatKind(), CT(CT::Anything));
  EXPECT_EQ(Whole.describeUndecided(), "bytes 4..7 have no known type");
  // The fields alone decide.
  EXPECT_EQ(Info.queryPointee(P, 8, 8).getClass(), ByteSummary::Float);
  EXPECT_EQ(Info.queryPointee(P, 8, 8).getFloatKind(), CT(CT::Double));
  EXPECT_EQ(Info.queryPointee(P, 0, 4).getClass(), ByteSummary::NonFloat);
  EXPECT_EQ(Info.queryPointee(P, 8, 12).getClass(), ByteSummary::Float);
  EXPECT_EQ(Info.queryPointee(P, 0, 16).hasFloat(), true);
}

TEST_F(TypeAnalysisTest, UnionIsAnything) {
  // union { double d; long l; }: the same bytes read both ways. The memory
  // is Anything, the double loaded from it still a double.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %u) {
      %d = load double, ptr %u
      %l = load i64, ptr %u
      %m = mul i64 %l, 3
      ret double %d
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "u"), "{[]:Pointer, [0]:Anything, [1..7]:Integer}");
  EXPECT_EQ(treeOf(Info, "d"), "{[]:Double}");
  ByteSummary Q = Info.queryAccess(*cast<Instruction>(
      named(Info.getFunction(), "d")));
  EXPECT_EQ(Q.getClass(), ByteSummary::Undecided);
  EXPECT_EQ(Q.undecided()[0].Type, CT(CT::Anything));
  EXPECT_EQ(Q.describeUndecided(), "byte 0 is used as different types");
}

TEST_F(TypeAnalysisTest, ArrayOfStructsWithVariableIndex) {
  // Item items[n] with Item = { int id; double w[2]; }, read at items[i]:
  // the variable index makes the layout of one element repeat every 24
  // bytes.
  ASSERT_TRUE(parse(R"IR(
    %struct.Item = type { i32, [2 x double] }
    define double @f(ptr %items, i64 %i) {
      %id.p = getelementptr inbounds %struct.Item, ptr %items, i64 %i
      %id = load i32, ptr %id.p
      %k = sdiv i32 %id, 2
      %w.p = getelementptr inbounds %struct.Item, ptr %items, i64 %i, i32 1, i64 1
      %w = load double, ptr %w.p
      ret double %w
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "items"),
            "{[]:Pointer, [24n+0..3]:Integer, [24n+16]:Double}");
  EXPECT_EQ(treeOf(Info, "i"), "{[0..7]:Integer}");
  // The pointer to w[1] of some element sees the same array from there.
  EXPECT_EQ(treeOf(Info, "w.p"),
            "{[]:Pointer, [24n]:Double, [24n+8..11]:Integer}");
  const Value *Items = named(Info.getFunction(), "items");
  // Element 5's w[1] is a double, its id an integer.
  EXPECT_TRUE(Info.queryPointee(Items, 5 * 24 + 16, 8).isFloat());
  EXPECT_TRUE(Info.queryPointee(Items, 5 * 24, 4).isNonFloat());
  // A copy of unknown size is described by one period of the array.
  EXPECT_EQ(Info.queryPointee(Items, 0, FunctionTypeInfo::UnknownSize).str(),
            "[0,4):Integer [4,16):Unknown [16,24):Double");
}

TEST_F(TypeAnalysisTest, IntegerLoadOfADouble) {
  // A struct copy as instcombine writes it: i64 loads and stores. The other
  // uses of the destination say the bytes are a double, and that flows back
  // through the store and the load to the source.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %dst, ptr %src) {
      %v = load i64, ptr %src
      store i64 %v, ptr %dst
      %x = load double, ptr %dst
      ret double %x
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "v"), "{[0]:Double}");
  EXPECT_EQ(treeOf(Info, "src"), "{[]:Pointer, [0]:Double}");
  const Instruction *Load = cast<Instruction>(named(Info.getFunction(), "v"));
  ByteSummary Q = Info.queryAccess(*Load);
  EXPECT_TRUE(Q.isFloat());
  EXPECT_EQ(Q.getFloatKind(), CT(CT::Double));
  EXPECT_TRUE(Info.queryValue(Load).isFloat());
}

TEST_F(TypeAnalysisTest, BitcastOfIntegerBitsIsTheFloat) {
  // Bits moved through integers come out as the float they are.
  ASSERT_TRUE(parse(R"IR(
    define double @f(double %x) {
      %b = bitcast double %x to i64
      %a = and i64 %b, 9223372036854775807
      %r = bitcast i64 %a to double
      ret double %r
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "b"), "{[0]:Double}");
  EXPECT_EQ(treeOf(Info, "a"), "{[0]:Double}");
}

TEST_F(TypeAnalysisTest, PackedFloatsInAnInteger) {
  // Two floats passed in one i64 (SROA's shape for a {float, float} copy):
  // each half keeps its float.
  ASSERT_TRUE(parse(R"IR(
    define float @f(ptr %p) {
      %v = load i64, ptr %p
      %lo = trunc i64 %v to i32
      %hi.s = lshr i64 %v, 32
      %hi = trunc i64 %hi.s to i32
      %a = bitcast i32 %lo to float
      %b = bitcast i32 %hi to float
      %r = fadd float %a, %b
      ret float %r
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "v"), "{[0]:Float, [4]:Float}");
  EXPECT_EQ(treeOf(Info, "p"), "{[]:Pointer, [0]:Float, [4]:Float}");
  EXPECT_TRUE(Info.queryAccess(*cast<Instruction>(
                                   named(Info.getFunction(), "v")))
                  .isFloat());
}

TEST_F(TypeAnalysisTest, PointerStoredInMemoryAndLoadedBack) {
  // struct { double *data; long n; } *s: the pointer field points to
  // doubles, and the pointer loaded back knows it.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %s, ptr %buf) {
      store ptr %buf, ptr %s
      %n.p = getelementptr inbounds i8, ptr %s, i64 8
      %n = load i64, ptr %n.p
      %last = add i64 %n, -1
      %m = mul i64 %last, 8
      %data = load ptr, ptr %s
      %e = getelementptr inbounds double, ptr %data, i64 %last
      %x = load double, ptr %e
      ret double %x
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "s"),
            "{[]:Pointer, [0]:Pointer, [0, 8n]:Double, [8..15]:Integer}");
  EXPECT_EQ(treeOf(Info, "buf"), "{[]:Pointer, [8n]:Double}");
  EXPECT_EQ(treeOf(Info, "data"), "{[]:Pointer, [8n]:Double}");
  const Value *S = named(Info.getFunction(), "s");
  EXPECT_TRUE(Info.queryPointee(S, 0, 16).isNonFloat());
}

TEST_F(TypeAnalysisTest, MemcpyOfBytes) {
  // memcpy(dst, src, 16) of a { double; long } and uses on both sides: each
  // side learns what the other's uses say.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %dst, ptr %src) {
      call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
      %x = load double, ptr %src
      %n.p = getelementptr inbounds i8, ptr %dst, i64 8
      %n = load i64, ptr %n.p
      %n2 = mul i64 %n, 2
      %after.p = getelementptr inbounds i8, ptr %src, i64 16
      %after = load float, ptr %after.p
      ret double %x
    }
    declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  // The float after the copied range stays with the source.
  EXPECT_EQ(treeOf(Info, "src"),
            "{[]:Pointer, [0]:Double, [8..15]:Integer, [16]:Float}");
  EXPECT_EQ(treeOf(Info, "dst"),
            "{[]:Pointer, [0]:Double, [8..15]:Integer}");
  const Instruction &Copy = *Info.getFunction().getEntryBlock().begin();
  ByteSummary Q = Info.queryAccess(Copy);
  EXPECT_EQ(Q.getClass(), ByteSummary::Mixed);
  EXPECT_EQ(Q.str(), "[0,8):Double [8,16):Integer");
}

TEST_F(TypeAnalysisTest, PaddingOfCopiedStructsCarriesNothing) {
  // struct { int id; double w; } copied with memcpy: clang lists the fields
  // in !tbaa.struct, so bytes 4..7 are padding, not undecided data. A
  // first-class struct store says the same through its type.
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %dst, ptr %src, ptr %out, double %x) {
      call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false), !tbaa.struct !0
      %s = insertvalue { i32, double } { i32 1, double poison }, double %x, 1
      store { i32, double } %s, ptr %out
      ret void
    }
    declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
    !0 = !{i64 0, i64 4, !1, i64 8, i64 8, !5}
    !1 = !{!2, !2, i64 0}
    !2 = !{!"int", !3, i64 0}
    !3 = !{!"omnipotent char", !4, i64 0}
    !4 = !{!"Simple C/C++ TBAA"}
    !5 = !{!6, !6, i64 0}
    !6 = !{!"double", !3, i64 0}
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  const Instruction &Copy = *Info.getFunction().getEntryBlock().begin();
  ByteSummary Q = Info.queryAccess(Copy);
  EXPECT_EQ(Q.getClass(), ByteSummary::Mixed);
  EXPECT_EQ(Q.str(), "[0,8):Integer [8,16):Double");
  // The tree itself does not claim the padding.
  EXPECT_EQ(treeOf(Info, "dst"), "{[]:Pointer, [0..3]:Integer, [8]:Double}");
  // The struct store: the i32 field is unknown (a constant says nothing),
  // the padding is not.
  const Instruction &Store = *std::prev(std::prev(
      Info.getFunction().getEntryBlock().end()));
  EXPECT_EQ(Info.queryAccess(Store).str(),
            "[0,4):Unknown [4,8):Integer [8,16):Double");
}

TEST_F(TypeAnalysisTest, MemcpyOfUnknownLengthCopiesArrays) {
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %dst, ptr %src, i64 %n) {
      %bytes = shl i64 %n, 3
      call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
      %e = getelementptr inbounds double, ptr %dst, i64 %n
      store double 1.0, ptr %e
      ret void
    }
    declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "src"), "{[]:Pointer, [8n]:Double}");
  EXPECT_EQ(treeOf(Info, "bytes"), "{[0..7]:Integer}");
  const Instruction &Copy = *std::next(
      Info.getFunction().getEntryBlock().begin());
  EXPECT_TRUE(Info.queryAccess(Copy).isFloat());
}

TEST_F(TypeAnalysisTest, CallsAcrossFunctions) {
  // What the callee does with its argument reaches the caller, and what the
  // caller knows reaches the callee.
  ASSERT_TRUE(parse(R"IR(
    define double @get(ptr %p, i64 %i) {
      %e = getelementptr inbounds double, ptr %p, i64 %i
      %x = load double, ptr %e
      ret double %x
    }
    define ptr @id(ptr %q) {
      ret ptr %q
    }
    define double @f(ptr %a, ptr %b) {
      %x = call double @get(ptr %a, i64 3)
      %c = call ptr @id(ptr %b)
      %y = load float, ptr %c
      ret double %x
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "a"), "{[]:Pointer, [8n]:Double}");
  // Through @id, both ways: %b's pointee is what %c's load says.
  EXPECT_EQ(treeOf(Info, "b"), "{[]:Pointer, [0]:Float}");
  EXPECT_EQ(treeOf(Info, "c"), "{[]:Pointer, [0]:Float}");
  // Asking again is free and gives the same result.
  unsigned Summaries = Analyzer.getNumSummaries();
  EXPECT_GE(Summaries, 3u);
  EXPECT_EQ(&analyze("f"), &Info);
  EXPECT_EQ(Analyzer.getNumSummaries(), Summaries);
}

TEST_F(TypeAnalysisTest, CallerPatternReachesTheCallee) {
  // @store_first only copies a pointer's bytes; the caller knows they are
  // doubles, so the summary for that pattern says so.
  ASSERT_TRUE(parse(R"IR(
    define void @copy8(ptr %d, ptr %s) {
      %v = load i64, ptr %s
      store i64 %v, ptr %d
      ret void
    }
    define double @f(ptr %a, ptr %b) {
      call void @copy8(ptr %a, ptr %b)
      %x = load double, ptr %a
      ret double %x
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "b"), "{[]:Pointer, [0]:Double}");
  // Alone, @copy8 cannot tell.
  const FunctionTypeInfo &Alone = analyze("copy8");
  EXPECT_EQ(treeOf(Alone, "v"), "{}");
  EXPECT_EQ(Alone.queryPointee(named(Alone.getFunction(), "s"), 0, 8)
                .getClass(),
            ByteSummary::Undecided);
  // With the caller's pattern it can.
  TypeTree PtrToDouble = TypeTree::ofRoot(CT::Pointer);
  PtrToDouble.insert({0}, CT::Double);
  const FunctionTypeInfo &WithPattern =
      Analyzer.analyze(*M->getFunction("copy8"), {PtrToDouble, TypeTree()});
  EXPECT_EQ(treeOf(WithPattern, "v"), "{[0]:Double}");
  EXPECT_EQ(treeOf(WithPattern, "s"), "{[]:Pointer, [0]:Double}");
}

TEST_F(TypeAnalysisTest, RecursionOverAShiftedPointer) {
  // sum(p, n) = n ? *p + sum(p + 1, n - 1) : 0: p steps through an array
  // like a loop would.
  ASSERT_TRUE(parse(R"IR(
    define double @sum(ptr %p, i64 %n) {
    entry:
      %c = icmp eq i64 %n, 0
      br i1 %c, label %done, label %step
    step:
      %x = load double, ptr %p
      %q = getelementptr inbounds double, ptr %p, i64 1
      %n1 = sub i64 %n, 1
      %s = call double @sum(ptr %q, i64 %n1)
      %r = fadd double %x, %s
      ret double %r
    done:
      ret double 0.0
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("sum");
  EXPECT_TRUE(Info.isComplete());
  EXPECT_EQ(treeOf(Info, "p"), "{[]:Pointer, [8n]:Double}");
  EXPECT_EQ(treeOf(Info, "s"), "{[]:Double}");
}

TEST_F(TypeAnalysisTest, MutualRecursionReachesAFixedPoint) {
  // @even and @odd call each other; what @odd learns about the pointer (a
  // float at 8) reaches @even's argument, and the return types settle.
  ASSERT_TRUE(parse(R"IR(
    define double @even(ptr %p, i64 %n) {
    entry:
      %c = icmp eq i64 %n, 0
      br i1 %c, label %base, label %rec
    base:
      %x = load double, ptr %p
      ret double %x
    rec:
      %n1 = sub i64 %n, 1
      %r = call double @odd(ptr %p, i64 %n1)
      ret double %r
    }
    define double @odd(ptr %p, i64 %n) {
      %f.p = getelementptr inbounds i8, ptr %p, i64 8
      %f = load float, ptr %f.p
      %n1 = sub i64 %n, 1
      %r = call double @even(ptr %p, i64 %n1)
      ret double %r
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("even");
  EXPECT_TRUE(Info.isComplete());
  EXPECT_EQ(treeOf(Info, "p"), "{[]:Pointer, [0]:Double, [8]:Float}");
  EXPECT_EQ(treeOf(Info, "r"), "{[]:Double}");
  // Analyzed alone, @odd learns the double from @even.
  EXPECT_EQ(treeOf(analyze("odd"), "p"), "{[]:Pointer, [0]:Double, [8]:Float}");
}

TEST_F(TypeAnalysisTest, PointerInductionVariable) {
  // for (double *p = a; p != end; ++p) *p *= 2;
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %a, ptr %end) {
    entry:
      br label %loop
    loop:
      %p = phi ptr [ %a, %entry ], [ %next, %loop ]
      %v = load double, ptr %p
      %v2 = fmul double %v, 2.0
      store double %v2, ptr %p
      %next = getelementptr inbounds i8, ptr %p, i64 8
      %c = icmp eq ptr %next, %end
      br i1 %c, label %exit, label %loop
    exit:
      ret void
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "a"), "{[]:Pointer, [8n]:Double}");
  EXPECT_EQ(treeOf(Info, "next"), "{[]:Pointer, [8n]:Double}");
}

TEST_F(TypeAnalysisTest, ByteOffsetsFromIndexArithmetic) {
  // LLVM 19 writes &items[i].w as a byte offset i * 16 + 8.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %items, i64 %i) {
      %off = mul nsw i64 %i, 16
      %w.off = add nsw i64 %off, 8
      %w.p = getelementptr inbounds i8, ptr %items, i64 %w.off
      %w = load double, ptr %w.p
      %id.p = getelementptr inbounds i8, ptr %items, i64 %off
      %id = load i32, ptr %id.p, !tbaa !1
      ret double %w
    }
    !1 = !{!2, !2, i64 0}
    !2 = !{!"int", !3, i64 0}
    !3 = !{!"omnipotent char", !4, i64 0}
    !4 = !{!"Simple C/C++ TBAA"}
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "items"),
            "{[]:Pointer, [16n+0..3]:Integer, [16n+8]:Double}");
}

TEST_F(TypeAnalysisTest, TBAADecidesIntegerCopies) {
  // TBAA on integer-typed accesses says what they copy.
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %d, ptr %s) {
      %v = load i64, ptr %s, !tbaa !1
      store i64 %v, ptr %d, !tbaa !1
      %q.p = getelementptr inbounds i8, ptr %s, i64 8
      %q = load ptr, ptr %q.p, !tbaa !5
      ret void
    }
    !1 = !{!2, !2, i64 0}
    !2 = !{!"double", !3, i64 0}
    !3 = !{!"omnipotent char", !4, i64 0}
    !4 = !{!"Simple C/C++ TBAA"}
    !5 = !{!6, !6, i64 0}
    !6 = !{!"p1 double", !7, i64 0}
    !7 = !{!"any pointer", !3, i64 0}
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "d"), "{[]:Pointer, [0]:Double}");
  EXPECT_EQ(treeOf(Info, "s"), "{[]:Pointer, [0]:Double, [8]:Pointer}");
}

TEST_F(TypeAnalysisTest, KnownLibraryFunctions) {
  ASSERT_TRUE(parse(R"IR(
    define double @f(double %x, i64 %n) {
      %bytes = shl i64 %n, 3
      %buf = call ptr @malloc(i64 %bytes)
      %e = alloca i32
      %m = call double @frexp(double %x, ptr %e)
      %s = alloca double
      %c = alloca double
      call void @sincos(double %x, ptr %s, ptr %c)
      %big = call ptr @realloc(ptr %buf, i64 64)
      store double %m, ptr %big
      call void @free(ptr %big)
      ret double %m
    }
    declare ptr @malloc(i64)
    declare ptr @realloc(ptr, i64)
    declare void @free(ptr)
    declare double @frexp(double, ptr)
    declare void @sincos(double, ptr, ptr)
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "bytes"), "{[0..7]:Integer}");
  EXPECT_EQ(treeOf(Info, "e"), "{[]:Pointer, [0..3]:Integer}");
  EXPECT_EQ(treeOf(Info, "s"), "{[]:Pointer, [0]:Double}");
  EXPECT_EQ(treeOf(Info, "c"), "{[]:Pointer, [0]:Double}");
  // realloc keeps the contents: the old block holds what the new one does.
  EXPECT_EQ(treeOf(Info, "buf"), "{[]:Pointer, [0]:Double}");
}

TEST_F(TypeAnalysisTest, GlobalsAndConstantExpressions) {
  ASSERT_TRUE(parse(R"IR(
    @table = global [4 x i64] zeroinitializer
    define double @f() {
      %x = load double, ptr getelementptr inbounds ([4 x i64], ptr @table, i64 0, i64 2)
      %y = load i64, ptr @table
      ret double %x
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(Info.getTree(M->getNamedGlobal("table")).str(),
            "{[]:Pointer, [16]:Double}");
}

TEST_F(TypeAnalysisTest, AggregateValues) {
  // A {double, ptr} returned by value and taken apart.
  ASSERT_TRUE(parse(R"IR(
    define { double, i64 } @make(double %x, i64 %n) {
      %a = insertvalue { double, i64 } poison, double %x, 0
      %b = insertvalue { double, i64 } %a, i64 %n, 1
      ret { double, i64 } %b
    }
    define i64 @f(double %x, i64 %n) {
      %s = call { double, i64 } @make(double %x, i64 %n)
      %k = extractvalue { double, i64 } %s, 1
      %k2 = mul i64 %k, 4
      ret i64 %k2
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "s"), "{[0]:Double, [8..15]:Integer}");
  EXPECT_EQ(treeOf(Info, "n"), "{[0..7]:Integer}");
}

TEST_F(TypeAnalysisTest, AssumeUnknownIsFloatOption) {
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %d, ptr %s) {
      %v = load i64, ptr %s
      store i64 %v, ptr %d
      ret void
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  const Instruction *Load = cast<Instruction>(named(Info.getFunction(), "v"));
  EXPECT_EQ(Info.queryAccess(*Load).getClass(), ByteSummary::Undecided);

  auto &Options = cl::getRegisteredOptions();
  auto *Opt = static_cast<cl::opt<bool> *>(
      Options.lookup("adjoint-assume-unknown-is-float"));
  ASSERT_NE(Opt, nullptr);
  *Opt = true;
  ByteSummary Assumed = Info.queryAccess(*Load);
  *Opt = false;
  EXPECT_TRUE(Assumed.isFloat());
  EXPECT_EQ(Assumed.getFloatKind(), CT(CT::Double));
}

TEST_F(TypeAnalysisTest, CapsEndWithAnIncompleteButSoundResult) {
  // A cursor kept in memory and advanced by 8 each time: without the loop
  // structure in SSA, each round finds one more double. The caps stop it;
  // what was found is still right.
  ASSERT_TRUE(parse(R"IR(
    define void @f(ptr %slot) {
      %c = load ptr, ptr %slot
      %x = load double, ptr %c
      %n = getelementptr inbounds i8, ptr %c, i64 8
      store ptr %n, ptr %slot
      ret void
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_FALSE(Info.isComplete());
  TypeTree C = Info.getTree(named(Info.getFunction(), "c"));
  for (const TypeTree::Entry &E : C.entries())
    EXPECT_TRUE(E.Type == CT::Pointer || E.Type == CT::Double);
  EXPECT_EQ(C.lookup({0}), CT(CT::Double));
  EXPECT_EQ(C.lookup({8}), CT(CT::Double));
}

TEST_F(TypeAnalysisTest, VectorsAreDescribedByLanes) {
  // A <2 x double> copied as <2 x i64>, its lanes swapped and extracted.
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %p, i32 %k) {
      %v = load <2 x i64>, ptr %p
      %d = bitcast <2 x i64> %v to <2 x double>
      %s = shufflevector <2 x double> %d, <2 x double> poison, <2 x i32> <i32 1, i32 0>
      %a = extractelement <2 x double> %s, i32 %k
      %ins = insertelement <4 x float> poison, float 1.0, i32 2
      %q = getelementptr inbounds i8, ptr %p, i64 16
      store <4 x float> %ins, ptr %q
      ret double %a
    }
  )IR"));
  const FunctionTypeInfo &Info = analyze("f");
  EXPECT_EQ(treeOf(Info, "v"), "{[0]:Double, [8]:Double}");
  EXPECT_EQ(treeOf(Info, "s"), "{[0]:Double, [8]:Double}");
  EXPECT_EQ(treeOf(Info, "k"), "{[0..3]:Integer}");
  EXPECT_EQ(treeOf(Info, "p"),
            "{[]:Pointer, [0]:Double, [8]:Double, [16]:Float, [20]:Float, "
            "[24]:Float, [28]:Float}");
  EXPECT_TRUE(Info.queryValue(named(Info.getFunction(), "v")).isFloat());
}

TEST_F(TypeAnalysisTest, UsableThroughTheAnalysisManager) {
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %p) {
      %x = load double, ptr %p
      ret double %x
    }
  )IR"));
  ModuleAnalysisManager MAM;
  MAM.registerPass([] { return PassInstrumentationAnalysis(); });
  MAM.registerPass([] { return TypeAnalysis(); });
  TypeAnalyzer &TA = MAM.getResult<TypeAnalysis>(*M);
  const FunctionTypeInfo &Info = TA.analyze(*M->getFunction("f"));
  EXPECT_EQ(treeOf(Info, "p"), "{[]:Pointer, [0]:Double}");
  // Preserved analyses keep it; anything else drops it.
  PreservedAnalyses PA = PreservedAnalyses::none();
  MAM.invalidate(*M, PA);
  EXPECT_EQ(MAM.getCachedResult<TypeAnalysis>(*M), nullptr);
  TypeAnalyzer &Again = MAM.getResult<TypeAnalysis>(*M);
  EXPECT_EQ(Again.getNumSummaries(), 0u);
  Again.analyze(*M->getFunction("f"));
  MAM.invalidate(*M, PreservedAnalyses::all());
  ASSERT_NE(MAM.getCachedResult<TypeAnalysis>(*M), nullptr);
  EXPECT_EQ(MAM.getCachedResult<TypeAnalysis>(*M)->getNumSummaries(), 1u);
}

TEST_F(TypeAnalysisTest, PrinterFormat) {
  ASSERT_TRUE(parse(R"IR(
    define double @f(ptr %p) {
      %x = load double, ptr %p
      ret double %x
    }
  )IR"));
  std::string Out;
  raw_string_ostream OS(Out);
  analyze("f").print(OS);
  EXPECT_EQ(Out, "types of 'f':\n"
                 "  arg %p: {[]:Pointer, [0]:Double}\n"
                 "  %x = load: {[]:Double}\n"
                 "  return: {[]:Double}\n");
}

} // namespace
