//===- FrontendTest.cpp - Parsing __enzyme_autodiff/fwddiff calls ---------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// parseAutodiffCall on small modules: how markers and defaults assign
// activities, how C's variadic promotions are undone, and which misuses are
// reported. Errors go through LLVMContext::diagnose; the tests install a
// handler that records them (without one, an error would exit the process).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Frontend/AutodiffRequest.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace adjoint;

namespace {

/// Declarations every test module starts with.
const char *const Prelude = R"IR(
  @enzyme_const = external global i32
  @enzyme_out = external global i32
  @enzyme_dup = external global i32
  @enzyme_dupnoneed = external global i32
  @enzyme_foo = external global i32
  declare double @__enzyme_autodiff(ptr, ...)
  declare double @__enzyme_fwddiff(ptr, ...)
)IR";

struct Diagnostic {
  DiagnosticSeverity Severity;
  std::string Message;
};

void recordDiagnostic(const DiagnosticInfo *DI, void *Context) {
  std::string Message;
  raw_string_ostream OS(Message);
  DiagnosticPrinterRawOStream DP(OS);
  DI->print(DP);
  static_cast<std::vector<Diagnostic> *>(Context)->push_back(
      {DI->getSeverity(), Message});
}

class FrontendTest : public ::testing::Test {
protected:
  FrontendTest() { Ctx.setDiagnosticHandlerCallBack(recordDiagnostic, &Diags); }

  /// Parses Prelude + \p IR and returns the call to an entry point
  /// (__enzyme_autodiff, __enzyme_fwddiff) in @caller, or null with a
  /// failure recorded.
  CallBase *callIn(const std::string &IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(Prelude + IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("FrontendTest", OS);
      ADD_FAILURE() << Msg;
      return nullptr;
    }
    Function *Caller = M->getFunction("caller");
    if (!Caller) {
      ADD_FAILURE() << "no @caller";
      return nullptr;
    }
    for (Instruction &I : instructions(*Caller))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->getName().starts_with(EnzymePrefix))
          return Call;
    ADD_FAILURE() << "no call to an entry point";
    return nullptr;
  }

  /// The argument of @caller named \p Name.
  Value *arg(StringRef Name) {
    for (Argument &A : M->getFunction("caller")->args())
      if (A.getName() == Name)
        return &A;
    ADD_FAILURE() << "no argument %" << Name.str();
    return nullptr;
  }

  /// Expects exactly one error, containing \p Text.
  void expectOneError(StringRef Text) {
    ASSERT_EQ(Diags.size(), 1u);
    EXPECT_EQ(Diags[0].Severity, DS_Error);
    EXPECT_NE(Diags[0].Message.find(Text.str()), std::string::npos)
        << "message: " << Diags[0].Message;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::vector<Diagnostic> Diags;
};

TEST_F(FrontendTest, MarkersAndDefaults) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x, double %y, ptr %p, i32 %n) {
      ret double %x
    }
    define double @caller(double %x, double %y, ptr %p, ptr %dp, i32 %n) {
      %c = load i32, ptr @enzyme_const
      %d = load i32, ptr @enzyme_dup
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c, double %x,
               double %y, i32 %d, ptr %p, ptr %dp, i32 %n)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(Diags.empty());
  EXPECT_EQ(R->Call, Call);
  EXPECT_EQ(R->Fn, M->getFunction("f"));
  ASSERT_EQ(R->Args.size(), 4u);
  // Marked, then defaulted by type: double is enzyme_out, int enzyme_const.
  EXPECT_EQ(R->Args[0].Activity, ArgActivity::Const);
  EXPECT_EQ(R->Args[1].Activity, ArgActivity::Out);
  EXPECT_EQ(R->Args[2].Activity, ArgActivity::Dup);
  EXPECT_EQ(R->Args[3].Activity, ArgActivity::Const);
  EXPECT_EQ(R->Args[0].Primal, arg("x"));
  EXPECT_EQ(R->Args[1].Primal, arg("y"));
  EXPECT_EQ(R->Args[2].Primal, arg("p"));
  EXPECT_EQ(R->Args[2].Shadow, arg("dp"));
  EXPECT_EQ(R->Args[3].Primal, arg("n"));
  for (unsigned I : {0u, 1u, 3u})
    EXPECT_EQ(R->Args[I].Shadow, nullptr) << I;
  SmallVector<ArgActivity, 8> Acts = R->activities();
  EXPECT_EQ(Acts.size(), 4u);
  EXPECT_EQ(Acts[2], ArgActivity::Dup);
}

TEST_F(FrontendTest, MarkerByAddressAndDefaultPointer) {
  // A marker may be passed as its address; an unmarked pointer is
  // duplicated and takes the next argument as its shadow.
  CallBase *Call = callIn(R"IR(
    define double @f(ptr %p, double %x) {
      ret double %x
    }
    define double @caller(ptr %p, ptr %dp, double %x) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp,
               ptr @enzyme_const, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(Diags.empty());
  ASSERT_EQ(R->Args.size(), 2u);
  EXPECT_EQ(R->Args[0].Activity, ArgActivity::Dup);
  EXPECT_EQ(R->Args[0].Shadow, arg("dp"));
  EXPECT_EQ(R->Args[1].Activity, ArgActivity::Const);
  EXPECT_EQ(R->Args[1].Primal, arg("x"));
}

TEST_F(FrontendTest, PromotedArgumentsAreConvertedBack) {
  // C passes float and char through `...` as double and int.
  CallBase *Call = callIn(R"IR(
    define float @f(float %x, i8 %k) {
      ret float %x
    }
    define double @caller(double %x, i32 %k) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(Diags.empty());
  ASSERT_EQ(R->Args.size(), 2u);
  EXPECT_EQ(R->Args[0].Activity, ArgActivity::Out);

  auto *Trunc = dyn_cast<FPTruncInst>(R->Args[0].Primal);
  ASSERT_NE(Trunc, nullptr);
  EXPECT_EQ(Trunc->getOperand(0), arg("x"));
  EXPECT_TRUE(Trunc->getType()->isFloatTy());
  // Inserted before the call, so that it dominates the replacement.
  EXPECT_TRUE(Trunc->comesBefore(Call));

  auto *IntTrunc = dyn_cast<TruncInst>(R->Args[1].Primal);
  ASSERT_NE(IntTrunc, nullptr);
  EXPECT_EQ(IntTrunc->getOperand(0), arg("k"));
  EXPECT_TRUE(IntTrunc->getType()->isIntegerTy(8));
}

TEST_F(FrontendTest, TooFewArguments) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x, double %y) {
      ret double %x
    }
    define double @caller(double %x) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("too few arguments to __enzyme_autodiff: missing a value for "
                 "parameter 2 of 'f'");
}

TEST_F(FrontendTest, MarkerWithoutValue) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %c = load i32, ptr @enzyme_const
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("too few arguments to __enzyme_autodiff");
}

TEST_F(FrontendTest, TooManyArguments) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x,
               double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("too many arguments to __enzyme_autodiff: 'f' takes 1 "
                 "parameter");
}

TEST_F(FrontendTest, OutOnAPointer) {
  CallBase *Call = callIn(R"IR(
    define double @f(ptr %p) {
      ret double 0.0
    }
    define double @caller(ptr %p) {
      %o = load i32, ptr @enzyme_out
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, ptr %p)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("enzyme_out on parameter 1 of 'f' of type ptr");
}

TEST_F(FrontendTest, DupWithoutShadow) {
  CallBase *Call = callIn(R"IR(
    define double @f(ptr %p) {
      ret double 0.0
    }
    define double @caller(ptr %p) {
      %d = load i32, ptr @enzyme_dup
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %p)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("missing shadow after enzyme_dup for parameter 1 of 'f'");
}

TEST_F(FrontendTest, UnknownMarker) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %m = load i32, ptr @enzyme_foo
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("unsupported activity marker 'enzyme_foo'");
}

TEST_F(FrontendTest, FunctionWithoutBody) {
  CallBase *Call = callIn(R"IR(
    declare double @g(double)
    define double @caller(double %x) {
      %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x)
      ret double %r
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("cannot differentiate 'g': its body is not in this");
}

TEST_F(FrontendTest, ValueOfTheWrongKind) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(ptr %p) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("has type ptr but the parameter has type double");
}

TEST_F(FrontendTest, ForwardModeDefaults) {
  // In forward mode a floating-point value without a marker is duplicated
  // by value: its tangent follows it (a float tangent arrives as a double).
  CallBase *Call = callIn(R"IR(
    define double @f(double %x, ptr %p, i32 %n, float %y, float %z) {
      ret double %x
    }
    define double @caller(double %x, double %dx, ptr %p, ptr %dp, i32 %n,
                          double %y, double %z, double %dz) {
      %c = load i32, ptr @enzyme_const
      %d = load i32, ptr @enzyme_dup
      %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x,
               double %dx, ptr %p, ptr %dp, i32 %n, i32 %c, double %y,
               i32 %d, double %z, double %dz)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
  ASSERT_TRUE(R.has_value());
  EXPECT_TRUE(Diags.empty());
  EXPECT_EQ(R->Mode, DiffMode::Forward);
  ASSERT_EQ(R->Args.size(), 5u);
  EXPECT_EQ(R->Args[0].Activity, ArgActivity::Dup);
  EXPECT_EQ(R->Args[0].Shadow, arg("dx"));
  EXPECT_EQ(R->Args[1].Activity, ArgActivity::Dup);
  EXPECT_EQ(R->Args[1].Shadow, arg("dp"));
  EXPECT_EQ(R->Args[2].Activity, ArgActivity::Const);
  EXPECT_EQ(R->Args[3].Activity, ArgActivity::Const);
  EXPECT_EQ(R->Args[3].Shadow, nullptr);
  EXPECT_EQ(R->Args[4].Activity, ArgActivity::Dup);
  ASSERT_NE(R->Args[4].Shadow, nullptr);
  EXPECT_TRUE(R->Args[4].Shadow->getType()->isFloatTy());
}

TEST_F(FrontendTest, ReverseModeRequest) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  std::optional<AutodiffRequest> R = parseAutodiffCall(*Call);
  ASSERT_TRUE(R.has_value());
  EXPECT_EQ(R->Mode, DiffMode::Reverse);
  EXPECT_EQ(entryPointName(R->Mode), "__enzyme_autodiff");
  EXPECT_EQ(entryPointName(DiffMode::Forward), "__enzyme_fwddiff");
}

TEST_F(FrontendTest, ForwardModeOut) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %o = load i32, ptr @enzyme_out
      %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %o, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("enzyme_out on parameter 1 of 'f': forward mode "
                 "(__enzyme_fwddiff) returns no gradients; use enzyme_dup");
}

TEST_F(FrontendTest, ForwardModeMissingTangent) {
  CallBase *Call = callIn(R"IR(
    define double @f(double %x) {
      ret double %x
    }
    define double @caller(double %x) {
      %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("missing tangent for parameter 1 of 'f': in forward mode");
}

TEST_F(FrontendTest, ForwardModeDupOnInteger) {
  CallBase *Call = callIn(R"IR(
    define double @f(i32 %n) {
      ret double 0.0
    }
    define double @caller(i32 %n) {
      %d = load i32, ptr @enzyme_dup
      %g = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %d, i32 %n,
               i32 %n)
      ret double %g
    }
  )IR");
  ASSERT_NE(Call, nullptr);
  EXPECT_FALSE(parseAutodiffCall(*Call).has_value());
  expectOneError("enzyme_dup on parameter 1 of 'f' of type i32: only "
                 "pointers and floating-point values have shadows or "
                 "tangents; use enzyme_const");
}

TEST(FrontendMarkers, NamesAndActivities) {
  for (ArgActivity A : {ArgActivity::Const, ArgActivity::Dup,
                        ArgActivity::DupNoNeed, ArgActivity::Out})
    EXPECT_EQ(markerActivity(activityName(A)), A);
  EXPECT_EQ(activityName(ArgActivity::DupNoNeed), "enzyme_dupnoneed");
  EXPECT_FALSE(markerActivity("enzyme_foo").has_value());
  EXPECT_FALSE(markerActivity("dup").has_value());
  EXPECT_TRUE(hasShadow(ArgActivity::Dup));
  EXPECT_TRUE(hasShadow(ArgActivity::DupNoNeed));
  EXPECT_FALSE(hasShadow(ArgActivity::Out));
  EXPECT_FALSE(hasShadow(ArgActivity::Const));
}

} // namespace
