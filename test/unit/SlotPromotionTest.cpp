//===- SlotPromotionTest.cpp - Where slot initializations go --------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// sinkSlotInitializations moves the store that initializes a slot of the
// entry block to the block that dominates the slot's other accesses, so
// that promoting many slots in a large gradient does not walk the whole
// dominator tree once per slot. Moving it is only right when that block
// runs at most once, before every access. Each test parses a small function
// with one slot %s initialized by `store double -0.0` and checks where the
// store ends up.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/SlotPromotion.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace llvm;
using namespace adjoint;

namespace {

class SlotPromotionTest : public ::testing::Test {
protected:
  /// Parses \p IR and returns its function @f, or null with a failure.
  Function *parse(const char *IR) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("SlotPromotionTest", OS);
      ADD_FAILURE() << Msg;
      return nullptr;
    }
    return M->getFunction("f");
  }

  /// The store of a constant to the slot %s (its initialization).
  static StoreInst *initialization(Function &F) {
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *SI = dyn_cast<StoreInst>(&I);
            SI && SI->getPointerOperand()->getName() == "s" &&
            isa<Constant>(SI->getValueOperand()))
          return SI;
    return nullptr;
  }

  /// The name of the block holding the initialization of %s.
  static std::string initializedIn(Function &F) {
    StoreInst *SI = initialization(F);
    return SI ? SI->getParent()->getName().str() : "<none>";
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
};

// Accesses in one block, which runs at most once: the store goes to the top
// of that block, before the first access, and promotion then finds every
// access in one block and gives the same result.
TEST_F(SlotPromotionTest, SinksToTheOnlyBlockUsingTheSlot) {
  Function *F = parse(R"(
    define double @f(i1 %c, double %x) {
    entry:
      %s = alloca double
      store double -0.0, ptr %s
      br label %a
    a:
      br i1 %c, label %b, label %d
    b:
      %v = load double, ptr %s
      %w = fadd double %v, %x
      store double %w, ptr %s
      %r = load double, ptr %s
      br label %d
    d:
      %p = phi double [ %r, %b ], [ 0.0, %a ]
      ret double %p
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 1u);
  StoreInst *Init = initialization(*F);
  ASSERT_TRUE(Init);
  EXPECT_EQ(Init->getParent()->getName(), "b");
  EXPECT_EQ(Init, &F->getEntryBlock().getNextNode()->getNextNode()->front())
      << "the store must come before the first load";
  EXPECT_FALSE(verifyFunction(*F, &errs()));

  // Promotion still works, and the first load of the slot becomes the
  // initial value.
  auto *Slot = cast<AllocaInst>(&F->getEntryBlock().front());
  Instruction *W = Init->getNextNode()->getNextNode();
  ASSERT_EQ(W->getName(), "w");
  DominatorTree DT(*F);
  PromoteMemToReg({Slot}, DT);
  EXPECT_FALSE(verifyFunction(*F, &errs()));
  auto *Initial = dyn_cast<ConstantFP>(W->getOperand(0));
  EXPECT_TRUE(Initial && Initial->isNegativeZeroValue());
}

// Accesses in both arms of a branch: the store goes to the branching block,
// the nearest block dominating both, not further up.
TEST_F(SlotPromotionTest, SinksToTheNearestCommonDominator) {
  Function *F = parse(R"(
    define double @f(i1 %c, double %x) {
    entry:
      %s = alloca double
      store double -0.0, ptr %s
      br label %a
    a:
      %y = fmul double %x, %x
      br i1 %c, label %b, label %c2
    b:
      store double %y, ptr %s
      br label %d
    c2:
      %v = load double, ptr %s
      br label %d
    d:
      ret double %y
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 1u);
  EXPECT_EQ(initializedIn(*F), "a");
  EXPECT_EQ(initialization(*F), &F->getEntryBlock().getNextNode()->front());
}

// Accesses inside a loop: the block dominating them runs once per
// iteration, and storing there would reset the slot every iteration.
TEST_F(SlotPromotionTest, StaysOutOfLoops) {
  Function *F = parse(R"(
    define double @f(i64 %n, double %x) {
    entry:
      %s = alloca double
      store double -0.0, ptr %s
      br label %header
    header:
      %i = phi i64 [ 0, %entry ], [ %i.next, %header ]
      %v = load double, ptr %s
      %w = fadd double %v, %x
      store double %w, ptr %s
      %i.next = add i64 %i, 1
      %more = icmp ult i64 %i.next, %n
      br i1 %more, label %header, label %exit
    exit:
      ret double %x
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 0u);
  EXPECT_EQ(initializedIn(*F), "entry");
}

// The same for a cycle that is not a natural loop (entered at %b and at
// %c2, as the reverse of a loop with two exits is): LoopInfo does not see
// it, but %b runs once per trip around it.
TEST_F(SlotPromotionTest, StaysOutOfIrreducibleCycles) {
  Function *F = parse(R"(
    define double @f(i1 %c, i1 %again, double %x) {
    entry:
      %s = alloca double
      store double -0.0, ptr %s
      br i1 %c, label %b, label %c2
    b:
      %v = load double, ptr %s
      %w = fadd double %v, %x
      store double %w, ptr %s
      br label %c2
    c2:
      br i1 %again, label %b, label %exit
    exit:
      ret double %x
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 0u);
  EXPECT_EQ(initializedIn(*F), "entry");
}

// An adjoint that collects contributions over every iteration and is read
// after the loop: the block dominating the accesses is the loop's header,
// the store goes to the block above the loop.
TEST_F(SlotPromotionTest, SinksAboveALoop) {
  Function *F = parse(R"(
    define double @f(i64 %n, double %x) {
    entry:
      %s = alloca double
      store double -0.0, ptr %s
      br label %pre
    pre:
      br label %header
    header:
      %i = phi i64 [ 0, %pre ], [ %i.next, %header ]
      %v = load double, ptr %s
      %w = fadd double %v, %x
      store double %w, ptr %s
      %i.next = add i64 %i, 1
      %more = icmp ult i64 %i.next, %n
      br i1 %more, label %header, label %exit
    exit:
      %r = load double, ptr %s
      ret double %r
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 1u);
  EXPECT_EQ(initializedIn(*F), "pre");
}

// Nothing moves when the entry block itself uses the slot after the store,
// when the slot is read before it is stored, or when an access is in
// unreachable code.
TEST_F(SlotPromotionTest, LeavesOtherSlotsAlone) {
  Function *F = parse(R"(
    define double @f(double %x) {
    entry:
      %s = alloca double
      %t = alloca double
      %u = alloca double
      store double -0.0, ptr %s
      %early = load double, ptr %s
      %t0 = load double, ptr %t
      store double -0.0, ptr %t
      store double -0.0, ptr %u
      br label %a
    a:
      %v = load double, ptr %s
      %vt = load double, ptr %t
      %vu = load double, ptr %u
      ret double %v
    dead:
      store double %x, ptr %u
      ret double %x
    }
  )");
  ASSERT_TRUE(F);
  EXPECT_EQ(sinkSlotInitializations(*F), 0u);
  unsigned StoresInEntry = 0;
  for (Instruction &I : F->getEntryBlock())
    StoresInEntry += isa<StoreInst>(I);
  EXPECT_EQ(StoresInEntry, 3u);
}

} // namespace
