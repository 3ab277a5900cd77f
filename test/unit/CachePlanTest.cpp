//===- CachePlanTest.cpp - Recompute or cache -----------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// CachePlan decides, for each primal value the reverse pass needs inside a
// loop, whether the forward pass caches it (memory per iteration) or the
// reverse recomputes it from its operands. Each test parses a small function
// whose loops are already in canonical form (preheader, single latch, the
// canonical i64 IV first in the header), picks the needed values by name,
// and pins the exact plan: the kind of every value that matters, the bytes
// cached per iteration of each loop, and where useful the printed plan.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Planning/CachePlan.h"
#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <initializer_list>
#include <memory>
#include <string>

using namespace llvm;
using namespace adjoint;

namespace {

constexpr ValuePlan::KindType Recompute = ValuePlan::Recompute;
constexpr ValuePlan::KindType Cache = ValuePlan::Cache;
constexpr ValuePlan::KindType Counter = ValuePlan::Counter;

using Reloadables = SmallPtrSet<const LoadInst *, 16>;

class CachePlanTest : public ::testing::Test {
protected:
  /// Parses \p IR, returns its function @f (or null with a failure), and
  /// computes its dominator tree and loops.
  Function *parse(const char *IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("CachePlanTest", OS);
      ADD_FAILURE() << Msg;
      return nullptr;
    }
    F = M->getFunction("f");
    if (!F) {
      ADD_FAILURE() << "no function @f";
      return nullptr;
    }
    DT = std::make_unique<DominatorTree>(*F);
    LI = std::make_unique<LoopInfo>(*DT);
    return F;
  }

  /// The instruction of @f named \p Name.
  Instruction *named(StringRef Name) const {
    for (Instruction &I : instructions(*F))
      if (I.getName() == Name)
        return &I;
    ADD_FAILURE() << "no instruction %" << Name.str();
    return nullptr;
  }

  SmallVector<Instruction *, 8> named(std::initializer_list<StringRef> Names) {
    SmallVector<Instruction *, 8> Result;
    for (StringRef N : Names)
      Result.push_back(named(N));
    return Result;
  }

  /// The loads named \p Names, as a reloadable set.
  Reloadables reloadable(std::initializer_list<StringRef> Names) const {
    Reloadables R;
    for (StringRef N : Names)
      R.insert(cast<LoadInst>(named(N)));
    return R;
  }

  /// The plan with the default predicate and \p R as the reloadable loads.
  CachePlan plan(ArrayRef<Instruction *> Needed, const Reloadables &R) const {
    return CachePlan(Needed, *LI, [&](const Instruction &I) {
      return isCheapToRecompute(I, R);
    });
  }

  /// The loop whose header is the block named \p Header.
  const Loop *loop(StringRef Header) const {
    for (BasicBlock &BB : *F)
      if (BB.getName() == Header) {
        const Loop *L = LI->getLoopFor(&BB);
        EXPECT_TRUE(L && L->getHeader() == &BB) << Header.str();
        return L;
      }
    ADD_FAILURE() << "no block %" << Header.str();
    return nullptr;
  }

  /// The names of \p Values, for comparing lists of values.
  static std::vector<std::string> names(ArrayRef<Instruction *> Values) {
    std::vector<std::string> Result;
    for (Instruction *I : Values)
      Result.push_back(I->getName().str());
    return Result;
  }

  static std::string printed(const CachePlan &P) {
    std::string S;
    raw_string_ostream OS(S);
    P.print(OS);
    return S;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> LI;
};

/// Checks the plan for the value named \p Name: its kind, the loop that
/// defines it and the bytes it caches per iteration.
#define EXPECT_PLAN(P, Name, ExpectedKind, ExpectedLoop, ExpectedBytes)        \
  do {                                                                         \
    const ValuePlan *VP = (P).lookup(named(Name));                             \
    ASSERT_NE(VP, nullptr) << "no plan for %" << (Name);                       \
    EXPECT_EQ(VP->Kind, (ExpectedKind)) << "%" << (Name);                      \
    EXPECT_EQ(VP->InLoop, (ExpectedLoop)) << "%" << (Name);                    \
    EXPECT_EQ(VP->Bytes, uint64_t(ExpectedBytes)) << "%" << (Name);            \
  } while (false)

#define EXPECT_NO_PLAN(P, Name)                                                \
  EXPECT_EQ((P).lookup(named(Name)), nullptr) << "%" << (Name)

/// sum += x[i] * x[i]: the reverse needs x[i].
const char *SumOfSquares = R"IR(
  define double @f(ptr %x, i64 %n) {
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
    %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
    %p = getelementptr inbounds double, ptr %x, i64 %i
    %v = load double, ptr %p
    %sq = fmul double %v, %v
    %s.next = fadd double %s, %sq
    %i.next = add i64 %i, 1
    %c = icmp ult i64 %i.next, %n
    br i1 %c, label %loop, label %exit
  exit:
    ret double %s.next
  }
)IR";

// x is never written: x[i] is loaded again in the reverse, from a GEP of the
// reverse's own iteration count. Nothing is cached.
TEST_F(CachePlanTest, ReloadableLoadIsRecomputedFromTheCounter) {
  ASSERT_NE(parse(SumOfSquares), nullptr);
  const Loop *L = loop("loop");
  ASSERT_EQ(getCanonicalIV(*L), named("i"));
  CachePlan P = plan(named({"v"}), reloadable({"v"}));

  EXPECT_PLAN(P, "v", Recompute, L, 0);
  EXPECT_PLAN(P, "p", Recompute, L, 0);
  EXPECT_PLAN(P, "i", Counter, L, 0);
  // Not on any path to a needed value.
  EXPECT_NO_PLAN(P, "s");
  EXPECT_NO_PLAN(P, "sq");
  EXPECT_NO_PLAN(P, "i.next");
  EXPECT_TRUE(P.cachedValues().empty());
  EXPECT_EQ(P.cachedBytesPerIteration(L), 0u);
  EXPECT_EQ(printed(P), "  loop %loop (depth 1): cache 0 bytes per iteration\n"
                        "    i64 %i = phi: reverse iteration count (operand)\n"
                        "    ptr %p = getelementptr: recompute (operand)\n"
                        "    double %v = load: recompute\n");
}

// x may be overwritten: x[i] is cached, one double per iteration, and its
// address is not needed at all.
TEST_F(CachePlanTest, OverwrittenLoadIsCached) {
  ASSERT_NE(parse(SumOfSquares), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"v"}), Reloadables());

  EXPECT_PLAN(P, "v", Cache, L, 8);
  EXPECT_NO_PLAN(P, "p");
  EXPECT_NO_PLAN(P, "i");
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"v"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
  EXPECT_EQ(printed(P), "  loop %loop (depth 1): cache 8 bytes per iteration\n"
                        "    double %v = load: cache 8 bytes\n");
}

// The canonical IV needed directly is the reverse's own count, not cached.
TEST_F(CachePlanTest, NeededCanonicalIVIsTheCounter) {
  ASSERT_NE(parse(SumOfSquares), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"i", "i.next"}), Reloadables());

  EXPECT_PLAN(P, "i", Counter, L, 0);
  EXPECT_PLAN(P, "i.next", Recompute, L, 0);
  EXPECT_TRUE(P.cachedValues().empty());
  EXPECT_EQ(P.cachedBytesPerIteration(L), 0u);
}

// An i64 phi first in the header that steps by 2 is not the canonical IV: it
// is an ordinary recurrence, so it is cached.
TEST_F(CachePlanTest, NonUnitStepIVIsNotACounter) {
  ASSERT_NE(parse(R"IR(
    define void @f(ptr %x, i64 %n) {
    entry:
      br label %loop
    loop:
      %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
      %p = getelementptr inbounds double, ptr %x, i64 %k
      %v = load double, ptr %p
      %k.next = add i64 %k, 2
      %c = icmp ult i64 %k.next, %n
      br i1 %c, label %loop, label %exit
    exit:
      ret void
    }
  )IR"),
            nullptr);
  const Loop *L = loop("loop");
  ASSERT_EQ(getCanonicalIV(*L), nullptr);
  CachePlan P = plan(named({"k", "v"}), reloadable({"v"}));

  // k is needed itself, so it is cached, and x[k] is loaded again from it.
  EXPECT_PLAN(P, "k", Cache, L, 8);
  EXPECT_PLAN(P, "p", Recompute, L, 0);
  EXPECT_PLAN(P, "v", Recompute, L, 0);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"k"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

/// A recurrence p, and two values the reverse needs that are computed from
/// it alone: a square and a call (fabs, a cheap intrinsic, or sin).
const char *OnePhiTwoUses = R"IR(
  declare double @llvm.fabs.f64(double)
  declare double @llvm.sin.f64(double)
  define double @f(double %x0, i64 %n) {
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
    %p = phi double [ %x0, %entry ], [ %p.next, %loop ]
    %a = fmul double %p, %p
    %b = call double @llvm.fabs.f64(double %p)
    %sn = call double @llvm.sin.f64(double %p)
    %t = fadd double %a, %b
    %p.next = fadd double %t, %sn
    %i.next = add i64 %i, 1
    %c = icmp ult i64 %i.next, %n
    br i1 %c, label %loop, label %exit
  exit:
    ret double %p.next
  }
)IR";

// Caching p (8 bytes) beats caching a and b (16): both are recomputed from it.
TEST_F(CachePlanTest, CutAtTheSharedPhi) {
  ASSERT_NE(parse(OnePhiTwoUses), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"a", "b"}), Reloadables());

  EXPECT_PLAN(P, "p", Cache, L, 8);
  EXPECT_PLAN(P, "a", Recompute, L, 0);
  EXPECT_PLAN(P, "b", Recompute, L, 0);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"p"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
  EXPECT_EQ(printed(P), "  loop %loop (depth 1): cache 8 bytes per iteration\n"
                        "    double %p = phi: cache 8 bytes (operand)\n"
                        "    double %a = fmul: recompute\n"
                        "    double %b = call: recompute\n");
}

// The same with a sin-like call, under a predicate that lets the reverse
// call sin again: still p alone.
TEST_F(CachePlanTest, CutAtThePhiWhenTheCallIsRecomputable) {
  ASSERT_NE(parse(OnePhiTwoUses), nullptr);
  const Loop *L = loop("loop");
  Reloadables None;
  CachePlan P(named({"a", "sn"}), *LI, [&](const Instruction &I) {
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::sin)
        return true;
    return isCheapToRecompute(I, None);
  });

  EXPECT_PLAN(P, "p", Cache, L, 8);
  EXPECT_PLAN(P, "a", Recompute, L, 0);
  EXPECT_PLAN(P, "sn", Recompute, L, 0);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"p"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

// Under the default predicate sin is not recomputed, so it must be cached
// itself; a then costs 8 either way (a or p), and the cut nearest the
// needed values takes a: 16 bytes.
TEST_F(CachePlanTest, NonRecomputableCallForcesItsOwnCache) {
  ASSERT_NE(parse(OnePhiTwoUses), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"a", "sn"}), Reloadables());

  EXPECT_PLAN(P, "a", Cache, L, 8);
  EXPECT_PLAN(P, "sn", Cache, L, 8);
  EXPECT_EQ(names(P.cachedValues()), (std::vector<std::string>{"a", "sn"}));
  EXPECT_EQ(P.cachedBytesPerIteration(L), 16u);
}

/// Two recurrences p and q, and one product of them that two needed values
/// are computed from.
const char *TwoPhisOneProduct = R"IR(
  define double @f(double %x0, double %y0, i64 %n) {
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
    %p = phi double [ %x0, %entry ], [ %p.next, %loop ]
    %q = phi double [ %y0, %entry ], [ %q.next, %loop ]
    %c = fmul double %p, %q
    %d = fadd double %c, 1.0
    %e = fmul double %c, 2.0
    %p.next = fadd double %p, %d
    %q.next = fsub double %q, %e
    %i.next = add i64 %i, 1
    %cond = icmp ult i64 %i.next, %n
    br i1 %cond, label %loop, label %exit
  exit:
    %r = fadd double %p.next, %q.next
    ret double %r
  }
)IR";

// One value from two phis: caching it (8) beats caching both phis (16).
TEST_F(CachePlanTest, CutAtTheProductOfTwoPhis) {
  ASSERT_NE(parse(TwoPhisOneProduct), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"c"}), Reloadables());

  EXPECT_PLAN(P, "c", Cache, L, 8);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"c"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

// Two needed values from that product: caching it (8) beats caching both of
// them (16) or both phis (16), and both are recomputed from it.
TEST_F(CachePlanTest, CutInTheMiddle) {
  ASSERT_NE(parse(TwoPhisOneProduct), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"d", "e"}), Reloadables());

  EXPECT_PLAN(P, "c", Cache, L, 8);
  EXPECT_PLAN(P, "d", Recompute, L, 0);
  EXPECT_PLAN(P, "e", Recompute, L, 0);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"c"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

// Values outside every loop exist once and are simply kept: no plan, and a
// loop value computed from one does not pull it into the plan.
TEST_F(CachePlanTest, ValuesOutsideLoopsHaveNoPlan) {
  ASSERT_NE(parse(R"IR(
    declare double @g(double)
    define double @f(ptr %x, double %y, i64 %n) {
    entry:
      %scale = call double @g(double %y)
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
      %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
      %p = getelementptr inbounds double, ptr %x, i64 %i
      %v = load double, ptr %p
      %w = fmul double %v, %scale
      %s.next = fadd double %s, %w
      %i.next = add i64 %i, 1
      %c = icmp ult i64 %i.next, %n
      br i1 %c, label %loop, label %exit
    exit:
      %s.last = phi double [ %s.next, %loop ]
      %r = call double @g(double %s.last)
      ret double %r
    }
  )IR"),
            nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"scale", "s.last", "r", "w"}), reloadable({"v"}));

  EXPECT_NO_PLAN(P, "scale");
  EXPECT_NO_PLAN(P, "s.last"); // LCSSA phi: in the exit block.
  EXPECT_NO_PLAN(P, "r");
  EXPECT_PLAN(P, "w", Recompute, L, 0);
  EXPECT_PLAN(P, "v", Recompute, L, 0);
  EXPECT_TRUE(P.cachedValues().empty());
  EXPECT_EQ(P.cachedBytesPerIteration(L), 0u);
}

TEST_F(CachePlanTest, FunctionWithoutLoopsHasAnEmptyPlan) {
  ASSERT_NE(parse(R"IR(
    declare double @g(double)
    define double @f(double %x) {
      %a = call double @g(double %x)
      %b = fmul double %a, %a
      ret double %b
    }
  )IR"),
            nullptr);
  CachePlan P = plan(named({"a", "b"}), Reloadables());

  EXPECT_NO_PLAN(P, "a");
  EXPECT_NO_PLAN(P, "b");
  EXPECT_TRUE(P.cachedValues().empty());
  EXPECT_EQ(printed(P), "");
}

/// A 2-deep nest: x[i*m + j] read in the inner loop, a call on the inner
/// recurrence, a float call, and in the outer loop a square of the outer
/// recurrence and a call on the inner loop's result.
const char *Nest = R"IR(
  declare double @g(double)
  declare float @gf(double)
  define double @f(ptr %x, i64 %n, i64 %m) {
  entry:
    br label %outer
  outer:
    %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
    %row = phi double [ 0.0, %entry ], [ %row.next, %outer.latch ]
    %base = mul i64 %i, %m
    %u = fmul double %row, %row
    br label %inner
  inner:
    %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
    %acc = phi double [ %u, %outer ], [ %acc.next, %inner ]
    %idx = add i64 %base, %j
    %px = getelementptr inbounds double, ptr %x, i64 %idx
    %v = load double, ptr %px
    %w = call double @g(double %acc)
    %h = call float @gf(double %v)
    %hd = fpext float %h to double
    %prod = fmul double %w, %hd
    %acc.next = fadd double %acc, %prod
    %j.next = add i64 %j, 1
    %cj = icmp ult i64 %j.next, %m
    br i1 %cj, label %inner, label %outer.latch
  outer.latch:
    %acc.last = phi double [ %acc.next, %inner ]
    %o = call double @g(double %acc.last)
    %row.next = fadd double %acc.last, %o
    %i.next = add i64 %i, 1
    %ci = icmp ult i64 %i.next, %n
    br i1 %ci, label %outer, label %exit
  exit:
    ret double %row.next
  }
)IR";

TEST_F(CachePlanTest, NestPlansEachValueInItsInnermostLoop) {
  ASSERT_NE(parse(Nest), nullptr);
  const Loop *Outer = loop("outer");
  const Loop *Inner = loop("inner");
  ASSERT_NE(Outer, Inner);
  ASSERT_EQ(Inner->getParentLoop(), Outer);
  ASSERT_EQ(getCanonicalIV(*Outer), named("i"));
  ASSERT_EQ(getCanonicalIV(*Inner), named("j"));
  CachePlan P = plan(named({"v", "w", "h", "u", "o"}), reloadable({"v"}));

  // x[i*m + j] is loaded again from both counters; i*m belongs to the
  // outer loop.
  EXPECT_PLAN(P, "v", Recompute, Inner, 0);
  EXPECT_PLAN(P, "px", Recompute, Inner, 0);
  EXPECT_PLAN(P, "idx", Recompute, Inner, 0);
  EXPECT_PLAN(P, "j", Counter, Inner, 0);
  EXPECT_PLAN(P, "base", Recompute, Outer, 0);
  EXPECT_PLAN(P, "i", Counter, Outer, 0);
  // Calls: cached per iteration of their own loop.
  EXPECT_PLAN(P, "w", Cache, Inner, 8);
  EXPECT_PLAN(P, "h", Cache, Inner, 4);
  EXPECT_PLAN(P, "o", Cache, Outer, 8); // In the outer loop's latch.
  // row or u: 8 either way; the cut nearest the needed value takes u.
  EXPECT_PLAN(P, "u", Cache, Outer, 8);

  // In the function's order.
  EXPECT_EQ(names(P.cachedValues()),
            (std::vector<std::string>{"u", "w", "h", "o"}));
  EXPECT_EQ(P.cachedBytesPerIteration(Inner), 12u);
  EXPECT_EQ(P.cachedBytesPerIteration(Outer), 16u);
  EXPECT_EQ(P.cachedBytesPerIteration(nullptr), 0u);

  // Loops in the function's order, each with all of its values, even those
  // after the inner loop (o).
  std::string Text = printed(P);
  EXPECT_EQ(Text.rfind("  loop %outer (depth 1): cache 16 bytes per iteration\n"
                       "    i64 %i = phi: reverse iteration count (operand)\n",
                       0),
            0u)
      << Text;
  EXPECT_NE(Text.find("    i64 %base = mul: recompute (operand)\n"
                      "    double %u = fmul: cache 8 bytes\n"
                      "    double %o = call: cache 8 bytes\n"
                      "  loop %inner (depth 2): cache 12 bytes per iteration\n"
                      "    i64 %j = phi: reverse iteration count (operand)\n"
                      "    i64 %idx = add: recompute (operand)\n"
                      "    ptr %px = getelementptr: recompute (operand)\n"
                      "    double %v = load: recompute\n"
                      "    double %w = call: cache 8 bytes\n"
                      "    float %h = call: cache 4 bytes\n"),
            std::string::npos)
      << Text;
}

/// A reloadable load, an opaque call and a sin on it, and an fmuladd of it
/// with an argument.
const char *Calls = R"IR(
  declare double @g(double)
  declare double @llvm.fmuladd.f64(double, double, double)
  declare double @llvm.sin.f64(double)
  define double @f(ptr %x, double %y, i64 %n) {
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
    %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
    %p = getelementptr inbounds double, ptr %x, i64 %i
    %v = load double, ptr %p
    %gv = call double @g(double %v)
    %fm = call double @llvm.fmuladd.f64(double %v, double %v, double %y)
    %sn = call double @llvm.sin.f64(double %v)
    %t = fadd double %gv, %fm
    %t2 = fadd double %t, %sn
    %s.next = fadd double %s, %t2
    %i.next = add i64 %i, 1
    %c = icmp ult i64 %i.next, %n
    br i1 %c, label %loop, label %exit
  exit:
    ret double %s.next
  }
)IR";

TEST_F(CachePlanTest, OpaqueCallIsCachedFmuladdIsRecomputed) {
  ASSERT_NE(parse(Calls), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"gv", "fm"}), reloadable({"v"}));

  EXPECT_PLAN(P, "gv", Cache, L, 8);
  EXPECT_PLAN(P, "fm", Recompute, L, 0);
  EXPECT_PLAN(P, "v", Recompute, L, 0);
  EXPECT_PLAN(P, "p", Recompute, L, 0);
  EXPECT_PLAN(P, "i", Counter, L, 0);
  EXPECT_EQ(names(P.cachedValues()), std::vector<std::string>{"gv"});
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

TEST_F(CachePlanTest, DefaultPredicateCachesSin) {
  ASSERT_NE(parse(Calls), nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"sn", "fm"}), reloadable({"v"}));

  EXPECT_PLAN(P, "sn", Cache, L, 8);
  EXPECT_PLAN(P, "fm", Recompute, L, 0);
  EXPECT_EQ(P.cachedBytesPerIteration(L), 8u);
}

TEST_F(CachePlanTest, DefaultPredicate) {
  ASSERT_NE(parse(R"IR(
    declare double @g(double)
    declare double @llvm.fmuladd.f64(double, double, double)
    declare double @llvm.fabs.f64(double)
    declare double @llvm.sin.f64(double)
    define double @f(ptr %x, double %y, i1 %b) {
      %slot = alloca double
      %l1 = load double, ptr %x
      %l2 = load double, ptr %slot
      %add = fadd double %l1, %y
      %neg = fneg double %add
      %cmp = fcmp olt double %neg, %y
      %sel = select i1 %b, double %add, double %neg
      %cast = bitcast double %sel to i64
      %gep = getelementptr double, ptr %x, i64 %cast
      %fr = freeze double %sel
      %fm = call double @llvm.fmuladd.f64(double %y, double %y, double %fr)
      %fa = call double @llvm.fabs.f64(double %fm)
      %sn = call double @llvm.sin.f64(double %fa)
      %gc = call double @g(double %sn)
      %vec = insertelement <2 x double> poison, double %gc, i32 0
      %ext = extractelement <2 x double> %vec, i32 0
      ret double %ext
    }
  )IR"),
            nullptr);
  Reloadables R = reloadable({"l1"});
  for (StringRef Yes : {"l1", "add", "neg", "cmp", "sel", "cast", "gep", "fm",
                        "fa", "vec", "ext"})
    EXPECT_TRUE(isCheapToRecompute(*named(Yes), R)) << Yes.str();
  for (StringRef No : {"slot", "l2", "fr", "sn", "gc"})
    EXPECT_FALSE(isCheapToRecompute(*named(No), R)) << No.str();
}

// Bytes are the store size of the type: i1 1, float 4, <4 x double> 32.
TEST_F(CachePlanTest, BytesAreTheStoreSize) {
  ASSERT_NE(parse(R"IR(
    define void @f(i64 %n) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
      %flag = phi i1 [ false, %entry ], [ %flag.next, %loop ]
      %fl = phi float [ 0.0, %entry ], [ %fl.next, %loop ]
      %vec = phi <4 x double> [ zeroinitializer, %entry ], [ %vec.next, %loop ]
      %flag.next = xor i1 %flag, true
      %fl.next = fadd float %fl, 1.0
      %vec.next = fadd <4 x double> %vec, <double 1.0, double 2.0, double 3.0, double 4.0>
      %i.next = add i64 %i, 1
      %c = icmp ult i64 %i.next, %n
      br i1 %c, label %loop, label %exit
    exit:
      ret void
    }
  )IR"),
            nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"flag", "fl", "vec"}), Reloadables());

  EXPECT_PLAN(P, "flag", Cache, L, 1);
  EXPECT_PLAN(P, "fl", Cache, L, 4);
  EXPECT_PLAN(P, "vec", Cache, L, 32);
  EXPECT_EQ(names(P.cachedValues()),
            (std::vector<std::string>{"flag", "fl", "vec"}));
  EXPECT_EQ(P.cachedBytesPerIteration(L), 37u);
  EXPECT_EQ(printed(P), "  loop %loop (depth 1): cache 37 bytes per iteration\n"
                        "    i1 %flag = phi: cache 1 bytes\n"
                        "    float %fl = phi: cache 4 bytes\n"
                        "    <4 x double> %vec = phi: cache 32 bytes\n");
}

// The cut weighs bytes, not counts: two needed values from one phi are
// cached themselves when they are smaller together (an i1 and a float, 5
// bytes) than the double phi (8).
TEST_F(CachePlanTest, SmallNeededValuesAreCheaperThanTheirPhi) {
  ASSERT_NE(parse(R"IR(
    define void @f(i64 %n) {
    entry:
      br label %loop
    loop:
      %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
      %p = phi double [ 1.0, %entry ], [ %p.next, %loop ]
      %neg = fcmp olt double %p, 0.0
      %fl = fptrunc double %p to float
      %p.next = fmul double %p, 0.5
      %i.next = add i64 %i, 1
      %c = icmp ult i64 %i.next, %n
      br i1 %c, label %loop, label %exit
    exit:
      ret void
    }
  )IR"),
            nullptr);
  const Loop *L = loop("loop");
  CachePlan P = plan(named({"neg", "fl"}), Reloadables());

  EXPECT_PLAN(P, "neg", Cache, L, 1);
  EXPECT_PLAN(P, "fl", Cache, L, 4);
  EXPECT_EQ(P.cachedBytesPerIteration(L), 5u);
}

} // namespace

// A value of an outer loop is stored once per outer iteration, a value of
// the inner loop once per inner iteration: caching the outer phi p (8 bytes
// per outer iteration) beats caching t = p * 2 (8 bytes per inner one),
// though both are 8 bytes.
static const char *OuterSource = R"IR(
  define double @f(i64 %n, i64 %m) {
  entry:
    br label %outer
  outer:
    %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
    %p = phi double [ 1.0, %entry ], [ %p.next, %outer.latch ]
    br label %inner
  inner:
    %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
    %acc = phi double [ 0.0, %outer ], [ %acc.next, %inner ]
    %t = fmul double %p, 2.0
    %acc.next = fadd double %acc, %t
    %j.next = add i64 %j, 1
    %cj = icmp ult i64 %j.next, %m
    br i1 %cj, label %inner, label %outer.latch
  outer.latch:
    %acc.last = phi double [ %acc.next, %inner ]
    %p.next = fmul double %p, %acc.last
    %i.next = add i64 %i, 1
    %ci = icmp ult i64 %i.next, %n
    br i1 %ci, label %outer, label %exit
  exit:
    ret double %p.next
  }
)IR";

TEST_F(CachePlanTest, OuterValuesAreCheaperToCacheThanInnerOnes) {
  ASSERT_NE(parse(OuterSource), nullptr);
  const Loop *Outer = loop("outer");
  const Loop *Inner = loop("inner");
  CachePlan P = plan(named({"t"}), reloadable({}));
  EXPECT_PLAN(P, "p", Cache, Outer, 8);
  EXPECT_PLAN(P, "t", Recompute, Inner, 0);
  EXPECT_EQ(P.cachedBytesPerIteration(Inner), 0u);
  EXPECT_EQ(P.cachedBytesPerIteration(Outer), 8u);
}
