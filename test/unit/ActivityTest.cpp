//===- ActivityTest.cpp - Which values carry derivatives ------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ActivityInfo decides where synthesis emits derivative code. A value it
// wrongly calls constant silently loses a derivative; one it wrongly calls
// active costs code. Each test parses a small function and checks the
// verdict on every value that matters, with the reason in the comments.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Activity/ActivityAnalysis.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace llvm;
using namespace adjoint;

namespace {

constexpr ArgActivity Out = ArgActivity::Out;
constexpr ArgActivity Const = ArgActivity::Const;
constexpr ArgActivity Dup = ArgActivity::Dup;

class ActivityTest : public ::testing::Test {
protected:
  /// Parses \p IR and returns its function @f, or null with a failure.
  Function *parse(const char *IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("ActivityTest", OS);
      ADD_FAILURE() << Msg;
      return nullptr;
    }
    return M->getFunction("f");
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
};

/// The argument or instruction of \p F named \p Name.
const Value *named(const Function &F, StringRef Name) {
  for (const Argument &A : F.args())
    if (A.getName() == Name)
      return &A;
  for (const Instruction &I : instructions(F))
    if (I.getName() == Name)
      return &I;
  ADD_FAILURE() << "no value %" << Name.str();
  return nullptr;
}

TEST_F(ActivityTest, IntegerComputationsAreInactive) {
  Function *F = parse(R"IR(
    define double @f(double %x, i32 %n) {
      %m = mul i32 %n, 3
      %i = fptosi double %x to i32
      %k = add i32 %m, %i
      %c = sitofp i32 %k to double
      %r = fmul double %x, %c
      ret double %r
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out, Const});
  EXPECT_TRUE(AI.isActive(named(*F, "x")));
  EXPECT_TRUE(AI.isActive(named(*F, "r")));
  EXPECT_FALSE(AI.isActive(named(*F, "n")));
  EXPECT_FALSE(AI.isActive(named(*F, "m")));
  // fptosi of an active value: integers hold no derivative, and the float
  // rebuilt from it depends on x only through the integer.
  EXPECT_FALSE(AI.isActive(named(*F, "i")));
  EXPECT_FALSE(AI.isVaried(named(*F, "i")));
  EXPECT_FALSE(AI.isActive(named(*F, "k")));
  EXPECT_FALSE(AI.isActive(named(*F, "c")));
  EXPECT_FALSE(AI.isVaried(named(*F, "c")));
  // It is still needed to compute the active product.
  EXPECT_TRUE(AI.isUseful(named(*F, "c")));
}

TEST_F(ActivityTest, ValuesOfConstArgumentsAreInactive) {
  const char *IR = R"IR(
    define double @f(double %a, double %b) {
      %t = fmul double %b, %b
      %u = fadd double %t, 1.0
      %r = fmul double %a, %u
      ret double %r
    }
  )IR";
  Function *F = parse(IR);
  ASSERT_NE(F, nullptr);
  {
    ActivityInfo AI(*F, {Out, Const});
    EXPECT_TRUE(AI.isActive(named(*F, "a")));
    EXPECT_FALSE(AI.isActive(named(*F, "b")));
    // Useful (the result needs them) but not varied.
    for (const char *Name : {"t", "u"}) {
      EXPECT_FALSE(AI.isActive(named(*F, Name))) << Name;
      EXPECT_FALSE(AI.isVaried(named(*F, Name))) << Name;
      EXPECT_TRUE(AI.isUseful(named(*F, Name))) << Name;
    }
    EXPECT_TRUE(AI.isActive(named(*F, "r")));
  }
  {
    // The other way round.
    ActivityInfo AI(*F, {Const, Out});
    EXPECT_FALSE(AI.isActive(named(*F, "a")));
    for (const char *Name : {"b", "t", "u", "r"})
      EXPECT_TRUE(AI.isActive(named(*F, Name))) << Name;
  }
  {
    ActivityInfo AI(*F, {Const, Const});
    for (const Instruction &I : instructions(*F))
      EXPECT_FALSE(AI.isActive(&I)) << I.getName().str();
  }
}

TEST_F(ActivityTest, ValuesNotReachingTheResultAreNotUseful) {
  Function *F = parse(R"IR(
    define double @f(double %x) {
      %dead = fmul double %x, %x
      %unused = call double @llvm.sin.f64(double %dead)
      %r = fadd double %x, 1.0
      ret double %r
    }
    declare double @llvm.sin.f64(double)
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out});
  for (const char *Name : {"dead", "unused"}) {
    EXPECT_TRUE(AI.isVaried(named(*F, Name))) << Name;
    EXPECT_FALSE(AI.isUseful(named(*F, Name))) << Name;
    EXPECT_FALSE(AI.isActive(named(*F, Name))) << Name;
  }
  EXPECT_TRUE(AI.isActive(named(*F, "r")));
}

TEST_F(ActivityTest, NothingIsUsefulWithoutAFloatResult) {
  Function *F = parse(R"IR(
    define i32 @f(double %x) {
      %y = fmul double %x, %x
      %i = fptosi double %y to i32
      ret i32 %i
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out});
  EXPECT_TRUE(AI.isVaried(named(*F, "y")));
  EXPECT_FALSE(AI.isActive(named(*F, "x")));
  EXPECT_FALSE(AI.isActive(named(*F, "y")));
  EXPECT_FALSE(AI.isActive(named(*F, "i")));
}

TEST_F(ActivityTest, ActiveThroughPhiAndSelect) {
  Function *F = parse(R"IR(
    define double @f(double %x, double %y, i1 %c) {
    entry:
      br i1 %c, label %then, label %else
    then:
      %a = fmul double %x, %x
      br label %join
    else:
      %b = fadd double %x, 2.0
      br label %join
    join:
      %p = phi double [ %a, %then ], [ %b, %else ]
      %lt = fcmp olt double %p, 1.0
      %s = select i1 %lt, double %p, double %y
      %r = fmul double %s, 3.0
      ret double %r
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out, Const, Const});
  for (const char *Name : {"x", "a", "b", "p", "s", "r"})
    EXPECT_TRUE(AI.isActive(named(*F, Name))) << Name;
  // The condition is a boolean; the other arm comes from a const argument.
  EXPECT_FALSE(AI.isActive(named(*F, "lt")));
  EXPECT_FALSE(AI.isActive(named(*F, "c")));
  EXPECT_FALSE(AI.isActive(named(*F, "y")));
}

TEST_F(ActivityTest, ActiveAroundALoop) {
  // The accumulator is varied only through the back edge: the fixed point
  // must follow the cycle. The induction variable stays inactive.
  Function *F = parse(R"IR(
    define double @f(double %x, i32 %n) {
    entry:
      br label %loop
    loop:
      %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
      %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
      %acc.next = fadd double %acc, %x
      %i.next = add i32 %i, 1
      %done = icmp eq i32 %i.next, %n
      br i1 %done, label %exit, label %loop
    exit:
      ret double %acc.next
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out, Const});
  EXPECT_TRUE(AI.isActive(named(*F, "acc")));
  EXPECT_TRUE(AI.isActive(named(*F, "acc.next")));
  for (const char *Name : {"i", "i.next", "done", "n"})
    EXPECT_FALSE(AI.isActive(named(*F, Name))) << Name;
}

TEST_F(ActivityTest, DuplicatedPointersMakeLoadsActive) {
  Function *F = parse(R"IR(
    define double @f(ptr %p, ptr %q) {
      %v = load double, ptr %p
      %w = load double, ptr %q
      %r = fmul double %v, %w
      ret double %r
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Dup, Const});
  EXPECT_TRUE(AI.isActive(named(*F, "p")));
  EXPECT_TRUE(AI.isActive(named(*F, "v")));
  EXPECT_FALSE(AI.isActive(named(*F, "q")));
  EXPECT_FALSE(AI.isActive(named(*F, "w")));
  EXPECT_TRUE(AI.isActive(named(*F, "r")));
}

TEST_F(ActivityTest, DefaultActivitiesFollowTheParameterTypes) {
  Function *F = parse(R"IR(
    define void @f(double %d, ptr %p, i32 %n, float %s, <2 x float> %v,
                   { double, float } %agg, { double, i32 } %mixed) {
      ret void
    }
  )IR");
  ASSERT_NE(F, nullptr);
  SmallVector<ArgActivity, 8> Acts = defaultActivities(*F);
  ASSERT_EQ(Acts.size(), 7u);
  EXPECT_EQ(Acts[0], Out);
  EXPECT_EQ(Acts[1], Dup);
  EXPECT_EQ(Acts[2], Const);
  EXPECT_EQ(Acts[3], Out);
  EXPECT_EQ(Acts[4], Out);
  EXPECT_EQ(Acts[5], Out);
  // A struct with an integer field cannot be returned as a gradient.
  EXPECT_EQ(Acts[6], Const);
}

TEST_F(ActivityTest, PrintListsEveryValue) {
  Function *F = parse(R"IR(
    define double @f(double %x, i32 %n) {
      %m = add i32 %n, 1
      %r = fmul double %x, %x
      ret double %r
    }
  )IR");
  ASSERT_NE(F, nullptr);
  std::string Text;
  raw_string_ostream OS(Text);
  ActivityInfo(*F, {Out, Const}).print(OS);
  EXPECT_NE(Text.find("activity of 'f'"), std::string::npos) << Text;
  EXPECT_NE(Text.find("active   arg %x"), std::string::npos) << Text;
  EXPECT_NE(Text.find("constant arg %n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("constant %m = add"), std::string::npos) << Text;
  EXPECT_NE(Text.find("active   %r = fmul"), std::string::npos) << Text;
}

// A row of a matrix whose address is kept in a heap block (as a
// std::vector<std::vector<double>> keeps its rows): written through the
// pointer loaded back from there. The row, the block holding its address
// and the pointer stored into it all need shadows; so does a row only
// read, because the loaded pointer may be either.
TEST_F(ActivityTest, PointersStoredWhereWrittenMemoryIsLoadedFrom) {
  Function *F = parse(R"IR(
    declare ptr @malloc(i64)
    define double @f(double %x, i64 %k) {
      %rows = call ptr @malloc(i64 16)
      %row0 = call ptr @malloc(i64 8)
      %row1 = call ptr @malloc(i64 8)
      %other = call ptr @malloc(i64 8)
      store ptr %row0, ptr %rows
      %slot1 = getelementptr ptr, ptr %rows, i64 1
      store ptr %row1, ptr %slot1
      %slot = getelementptr ptr, ptr %rows, i64 %k
      %row = load ptr, ptr %slot
      %sq = fmul double %x, %x
      store double %sq, ptr %row
      %back = load double, ptr %row0
      store double 1.0, ptr %other
      %c = load double, ptr %other
      %r = fmul double %back, %c
      ret double %r
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out, Const});
  for (const char *Name : {"rows", "row0", "row1", "row", "sq", "back", "r"})
    EXPECT_TRUE(AI.isActive(named(*F, Name))) << Name;
  // Memory that never holds a derivative, nor the address of memory that
  // does, stays constant.
  EXPECT_FALSE(AI.isActive(named(*F, "other")));
  EXPECT_FALSE(AI.isActive(named(*F, "c")));
}

// An array of pointers to two locals, one holding a derivative: a pointer
// loaded from it may be either, so both locals need shadows (as for a phi
// of pointers). A parameter stored there instead cannot get one and stays
// constant, for the differentiability check to report.
TEST_F(ActivityTest, PointersStoredNextToVariedPointers) {
  Function *F = parse(R"IR(
    define double @f(double %x, i64 %k, ptr %q) {
      %a = alloca double
      %b = alloca double
      %arr = alloca [3 x ptr]
      store double %x, ptr %a
      store double 2.0, ptr %b
      store ptr %a, ptr %arr
      %s1 = getelementptr ptr, ptr %arr, i64 1
      store ptr %b, ptr %s1
      %s2 = getelementptr ptr, ptr %arr, i64 2
      store ptr %q, ptr %s2
      %slot = getelementptr ptr, ptr %arr, i64 %k
      %p = load ptr, ptr %slot
      %v = load double, ptr %p
      ret double %v
    }
  )IR");
  ASSERT_NE(F, nullptr);
  ActivityInfo AI(*F, {Out, Const, Const});
  for (const char *Name : {"a", "b", "arr", "p", "v"})
    EXPECT_TRUE(AI.isActive(named(*F, Name))) << Name;
  EXPECT_FALSE(AI.isVaried(named(*F, "q")));
}

} // namespace
