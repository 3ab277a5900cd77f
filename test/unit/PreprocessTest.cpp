//===- PreprocessTest.cpp - Unwind paths and stored pointers --------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Two steps of the canonical form that C++ needs. dropUnwindPaths takes an
// invoke's unwind edge as never taken exactly when the function cannot go
// on after an exception reaches the landing pad (cleanups that resume,
// rethrows, std::terminate); forwardStoredConstants replaces a load by the
// function the last store to its location wrote, and nothing else. Each
// test parses a small function and checks what became of each call site.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace llvm;
using namespace adjoint;

namespace {

class PreprocessTest : public ::testing::Test {
protected:
  PreprocessTest() {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }

  /// Parses \p IR and returns its function @f, or null with a failure.
  Function *parse(const char *IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("PreprocessTest", OS);
      ADD_FAILURE() << Msg;
      return nullptr;
    }
    return M->getFunction("f");
  }

  /// The call or invoke of \p F to \p Callee; null if there is none.
  static CallBase *callTo(Function &F, StringRef Callee) {
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Call->getCalledFunction() &&
            Call->getCalledFunction()->getName() == Callee)
          return Call;
    return nullptr;
  }

  static bool hasLandingPad(const Function &F) {
    for (const BasicBlock &BB : F)
      if (BB.isLandingPad())
        return true;
    return false;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
};

const char *const Declarations = R"IR(
  declare i32 @__gxx_personality_v0(...)
  declare double @mayThrow(double)
  declare double @noThrow(double) nounwind
  declare void @destroy(ptr) nounwind
  declare ptr @__cxa_begin_catch(ptr)
  declare void @__cxa_end_catch()
  declare void @__cxa_rethrow()
  declare void @_ZSt9terminatev() noreturn nounwind
)IR";

std::string withDeclarations(const char *Body) {
  return std::string(Declarations) + Body;
}

// A cleanup that runs a destructor and resumes: the exception leaves the
// function either way, so the invoke becomes a call.
TEST_F(PreprocessTest, CleanupOnlyUnwindPathIsDropped) {
  std::string IR = withDeclarations(R"IR(
    define double @f(double %x, ptr %obj)
        personality ptr @__gxx_personality_v0 {
    entry:
      %r = invoke double @mayThrow(double %x) to label %ok unwind label %lpad
    ok:
      call void @destroy(ptr %obj)
      ret double %r
    lpad:
      %lp = landingpad { ptr, i32 } cleanup
      call void @destroy(ptr %obj)
      resume { ptr, i32 } %lp
    }
  )IR");
  Function *F = parse(IR.c_str());
  ASSERT_TRUE(F);
  EXPECT_TRUE(dropUnwindPaths(*F));
  CallBase *Call = callTo(*F, "mayThrow");
  ASSERT_TRUE(Call);
  EXPECT_TRUE(isa<CallInst>(Call));
  EXPECT_FALSE(hasLandingPad(*F));
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

// catch (...) { cleanup; throw; }: a rethrow never lets the function go on.
TEST_F(PreprocessTest, RethrowingHandlerIsDropped) {
  std::string IR = withDeclarations(R"IR(
    define double @f(double %x, ptr %obj)
        personality ptr @__gxx_personality_v0 {
    entry:
      %r = invoke double @mayThrow(double %x) to label %ok unwind label %lpad
    ok:
      ret double %r
    lpad:
      %lp = landingpad { ptr, i32 } catch ptr null
      %e = extractvalue { ptr, i32 } %lp, 0
      %c = call ptr @__cxa_begin_catch(ptr %e)
      call void @destroy(ptr %obj)
      invoke void @__cxa_rethrow() to label %dead unwind label %lpad2
    lpad2:
      %lp2 = landingpad { ptr, i32 } cleanup
      call void @__cxa_end_catch()
      resume { ptr, i32 } %lp2
    dead:
      unreachable
    }
  )IR");
  Function *F = parse(IR.c_str());
  ASSERT_TRUE(F);
  EXPECT_TRUE(dropUnwindPaths(*F));
  ASSERT_TRUE(callTo(*F, "mayThrow"));
  EXPECT_TRUE(isa<CallInst>(callTo(*F, "mayThrow")));
  EXPECT_FALSE(hasLandingPad(*F));
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

// The handler of a noexcept boundary ends the program.
TEST_F(PreprocessTest, TerminatingHandlerIsDropped) {
  std::string IR = withDeclarations(R"IR(
    define double @f(double %x) personality ptr @__gxx_personality_v0 {
    entry:
      %r = invoke double @mayThrow(double %x) to label %ok unwind label %lpad
    ok:
      ret double %r
    lpad:
      %lp = landingpad { ptr, i32 } catch ptr null
      %e = extractvalue { ptr, i32 } %lp, 0
      %c = call ptr @__cxa_begin_catch(ptr %e)
      call void @_ZSt9terminatev()
      unreachable
    }
  )IR");
  Function *F = parse(IR.c_str());
  ASSERT_TRUE(F);
  EXPECT_TRUE(dropUnwindPaths(*F));
  EXPECT_TRUE(isa<CallInst>(callTo(*F, "mayThrow")));
  EXPECT_FALSE(hasLandingPad(*F));
}

// A catch that returns is part of what the function does: kept, for the
// differentiability check to report. An invoke of a function that cannot
// throw into that same handler is a call all the same.
TEST_F(PreprocessTest, HandlerThatReturnsIsKept) {
  std::string IR = withDeclarations(R"IR(
    define double @f(double %x) personality ptr @__gxx_personality_v0 {
    entry:
      %a = invoke double @noThrow(double %x) to label %next unwind label %lpad
    next:
      %r = invoke double @mayThrow(double %a) to label %ok unwind label %lpad
    ok:
      ret double %r
    lpad:
      %lp = landingpad { ptr, i32 } catch ptr null
      %e = extractvalue { ptr, i32 } %lp, 0
      %c = call ptr @__cxa_begin_catch(ptr %e)
      call void @__cxa_end_catch()
      ret double 0.0
    }
  )IR");
  Function *F = parse(IR.c_str());
  ASSERT_TRUE(F);
  EXPECT_TRUE(dropUnwindPaths(*F));
  EXPECT_TRUE(isa<CallInst>(callTo(*F, "noThrow")));
  EXPECT_TRUE(isa<InvokeInst>(callTo(*F, "mayThrow")));
  EXPECT_TRUE(hasLandingPad(*F));
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

const char *const StoredFunctions = R"IR(
  declare double @target(double)
  declare double @other(double)
  declare double @sin(double)
  declare void @unknown(ptr)

  ; Stored in one block, loaded in another, past a call that may write any
  ; memory it can see: the local's address escapes only afterwards.
  define double @f(double %x, i1 %c) {
  entry:
    %slot = alloca ptr
    store ptr @target, ptr %slot
    %s = call double @sin(double %x)
    br i1 %c, label %a, label %b
  a:
    br label %join
  b:
    br label %join
  join:
    %fp = load ptr, ptr %slot
    %r = call double %fp(double %s)
    call void @unknown(ptr %slot)
    %fp2 = load ptr, ptr %slot
    %r2 = call double %fp2(double %r)
    ret double %r2
  }

  ; The two paths store different functions.
  define double @g(double %x, i1 %c) {
  entry:
    %slot = alloca ptr
    br i1 %c, label %a, label %b
  a:
    store ptr @target, ptr %slot
    br label %join
  b:
    store ptr @other, ptr %slot
    br label %join
  join:
    %fp = load ptr, ptr %slot
    %r = call double %fp(double %x)
    ret double %r
  }

  ; A loop that writes memory, but not the slot: around the loop, the
  ; value from before it.
  define double @h(double %x, i64 %n) {
  entry:
    %slot = alloca ptr
    %buf = alloca double
    store ptr @target, ptr %slot
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
    %acc = phi double [ %x, %entry ], [ %y, %loop ]
    %fp = load ptr, ptr %slot
    %y = call double %fp(double %acc) readnone
    call void @unknown(ptr %buf)
    %i.next = add i64 %i, 1
    %done = icmp eq i64 %i.next, %n
    br i1 %done, label %exit, label %loop
  exit:
    ret double %y
  }
)IR";

TEST_F(PreprocessTest, ForwardsStoredFunctionsPastCallsThatCannotSeeThem) {
  ASSERT_TRUE(parse(StoredFunctions));
  Function &F = *M->getFunction("f");
  EXPECT_TRUE(hasIndirectCalls(F));
  EXPECT_TRUE(forwardStoredConstants(F, FAM));
  // The first load reads @target; after @unknown(%slot) it may be anything.
  CallBase *First = callTo(F, "target");
  ASSERT_TRUE(First);
  unsigned Indirect = 0;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && !Call->getCalledFunction())
      ++Indirect;
  EXPECT_EQ(Indirect, 1u);
  EXPECT_FALSE(verifyFunction(F, &errs()));
}

// A virtual call: the constructor stored the vtable's address; the call
// loads it back and then the function from the constant vtable, which
// canonicalization folds once the first load is known.
TEST_F(PreprocessTest, ForwardsStoredVtablePointers) {
  Function *F = parse(R"IR(
    @vtable = linkonce_odr unnamed_addr constant { [3 x ptr] }
        { [3 x ptr] [ptr null, ptr null, ptr @area] }
    declare void @unknown(ptr)
    define double @area(ptr %this, double %s) {
      %r = fmul double %s, %s
      ret double %r
    }
    define double @f(double %x) {
      %obj = alloca { ptr, double }
      store ptr getelementptr inbounds (i8, ptr @vtable, i64 16), ptr %obj
      %vptr = load ptr, ptr %obj
      %slot = getelementptr inbounds ptr, ptr %vptr, i64 0
      %fn = load ptr, ptr %slot
      %r = call double %fn(ptr %obj, double %x)
      call void @unknown(ptr %obj)
      ret double %r
    }
  )IR");
  ASSERT_TRUE(F);
  EXPECT_TRUE(forwardStoredConstants(*F, FAM));
  // The vtable pointer is known; the function read from the constant
  // vtable is canonicalization's to fold.
  for (Instruction &I : instructions(*F))
    if (auto *Load = dyn_cast<LoadInst>(&I))
      EXPECT_NE(Load->getName(), "vptr");
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

TEST_F(PreprocessTest, DisagreeingPathsAreNotForwarded) {
  ASSERT_TRUE(parse(StoredFunctions));
  Function &G = *M->getFunction("g");
  EXPECT_FALSE(forwardStoredConstants(G, FAM));
  EXPECT_TRUE(hasIndirectCalls(G));
}

TEST_F(PreprocessTest, LoopsThatDoNotWriteTheSlotAreLookedThrough) {
  ASSERT_TRUE(parse(StoredFunctions));
  Function &H = *M->getFunction("h");
  EXPECT_TRUE(forwardStoredConstants(H, FAM));
  EXPECT_FALSE(hasIndirectCalls(H));
  EXPECT_FALSE(verifyFunction(H, &errs()));
}

} // namespace
