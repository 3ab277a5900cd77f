//===- CachePlan.cpp - Recompute or cache -----------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Planning/CachePlan.h"
#include "adjoint/Planning/MinCut.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Rules/DerivativeRules.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

bool isCheapToRecompute(const Instruction &I,
                        const SmallPtrSetImpl<const LoadInst *> &Reloadable) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return Reloadable.contains(LI);
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fabs:
    case Intrinsic::copysign:
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::umin:
    case Intrinsic::umax:
    case Intrinsic::abs:
      return true;
    default:
      return false;
    }
  }
  // Not freeze: a frozen poison may freeze to another value the second time.
  return isa<BinaryOperator, UnaryOperator, CastInst, GetElementPtrInst,
             CmpInst, SelectInst, ExtractElementInst, InsertElementInst,
             ShuffleVectorInst, ExtractValueInst, InsertValueInst>(I);
}

namespace {

bool isCanonicalIV(const Instruction &I, const Loop &L) {
  return getCanonicalIV(L) == &I;
}

/// The bytes an element of \p I's cache array takes.
uint64_t cachedBytes(const Instruction &I) {
  return I.getDataLayout().getTypeAllocSize(I.getType());
}

/// What caching \p I costs, in bytes weighted by how often it is stored:
/// a value of an inner loop is stored once per iteration of every loop
/// around it. Trip counts are unknown here, so each level counts as 64
/// iterations (and depths beyond 6 as 6, which keeps sums far from
/// VertexCut::Infinite).
uint64_t cachingCost(const Instruction &I, const Loop &L) {
  return cachedBytes(I) << (6 * std::min(L.getLoopDepth(), 6u));
}

} // namespace

CachePlan::CachePlan(ArrayRef<Instruction *> Needed, const LoopInfo &LI,
                     RecomputePredicate CanRecompute) {
  // The graph: one node per loop value that is needed or that a needed
  // value may be recomputed from; an edge from each operand to its user.
  VertexCut Graph;
  MapVector<Instruction *, unsigned> Nodes;
  SmallVector<Instruction *, 16> Worklist;
  auto NodeOf = [&](Instruction *I) -> std::optional<unsigned> {
    const Loop *L = LI.getLoopFor(I->getParent());
    if (!L || isCanonicalIV(*I, *L))
      return std::nullopt;
    auto [It, Inserted] = Nodes.try_emplace(I, 0);
    if (Inserted) {
      It->second = Graph.addNode(cachingCost(*I, *L));
      Worklist.push_back(I);
    }
    return It->second;
  };

  for (Instruction *I : Needed) {
    NeededSet.insert(I);
    if (std::optional<unsigned> N = NodeOf(I))
      Graph.addSink(*N);
  }
  while (!Worklist.empty()) {
    Instruction *I = Worklist.pop_back_val();
    unsigned N = Nodes.lookup(I);
    if (!CanRecompute(*I)) {
      Graph.addSource(N);
      continue;
    }
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        if (std::optional<unsigned> OpN = NodeOf(OpI))
          Graph.addEdge(*OpN, N);
  }

  std::optional<SmallVector<unsigned, 8>> Cut = Graph.solve();
  assert(Cut && "every value can be cached");
  DenseSet<unsigned> InCut(Cut->begin(), Cut->end());
  // Cached: the cut. Recomputed: what a needed value is computed from
  // without going through the cut. Counters: the canonical IVs on the way.
  // Values beyond the cut are not needed.
  SmallVector<Instruction *, 16> Reached;
  DenseSet<Instruction *> Seen;
  auto Reach = [&](Instruction *I) {
    const Loop *L = LI.getLoopFor(I->getParent());
    if (!L || !Seen.insert(I).second)
      return;
    if (isCanonicalIV(*I, *L))
      Plans.insert({I, {ValuePlan::Counter, L, 0}});
    else
      Reached.push_back(I);
  };
  for (Instruction *I : Needed)
    Reach(I);
  while (!Reached.empty()) {
    Instruction *I = Reached.pop_back_val();
    const Loop *L = LI.getLoopFor(I->getParent());
    if (InCut.contains(Nodes.lookup(I))) {
      Plans.insert({I, {ValuePlan::Cache, L, cachedBytes(*I)}});
      continue;
    }
    Plans.insert({I, {ValuePlan::Recompute, L, 0}});
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Reach(OpI);
  }
  // The function's order, for whoever lists the plan.
  if (Plans.empty())
    return;
  MapVector<Instruction *, ValuePlan> Ordered;
  for (Instruction &I : instructions(*Plans.front().first->getFunction()))
    if (auto It = Plans.find(&I); It != Plans.end())
      Ordered.insert(*It);
  Plans = std::move(Ordered);
}

const ValuePlan *CachePlan::lookup(const Instruction *I) const {
  auto It = Plans.find(const_cast<Instruction *>(I));
  return It == Plans.end() ? nullptr : &It->second;
}

SmallVector<Instruction *, 8> CachePlan::cachedValues() const {
  SmallVector<Instruction *, 8> Result;
  for (const auto &[I, P] : Plans)
    if (P.Kind == ValuePlan::Cache)
      Result.push_back(I);
  return Result;
}

uint64_t CachePlan::cachedBytesPerIteration(const Loop *L) const {
  uint64_t Bytes = 0;
  for (const auto &[I, P] : Plans)
    if (P.Kind == ValuePlan::Cache && P.InLoop == L)
      Bytes += P.Bytes;
  return Bytes;
}

void CachePlan::print(raw_ostream &OS) const {
  // Group by loop; Plans is in the function's order.
  SmallVector<const Loop *, 4> Loops;
  for (const auto &[I, P] : Plans)
    if (!is_contained(Loops, P.InLoop))
      Loops.push_back(P.InLoop);
  for (const Loop *L : Loops) {
    OS << "  loop ";
    L->getHeader()->printAsOperand(OS, /*PrintType=*/false);
    OS << " (depth " << L->getLoopDepth() << "): cache "
       << cachedBytesPerIteration(L) << " bytes per iteration\n";
    for (const auto &[I, P] : Plans) {
      if (P.InLoop != L)
        continue;
      OS << "    ";
      I->printAsOperand(OS, /*PrintType=*/true);
      OS << " = " << I->getOpcodeName() << ": ";
      switch (P.Kind) {
      case ValuePlan::Recompute:
        OS << "recompute";
        break;
      case ValuePlan::Cache:
        OS << "cache " << P.Bytes << " bytes";
        break;
      case ValuePlan::Counter:
        OS << "reverse iteration count";
        break;
      }
      OS << (NeededSet.contains(I) ? "\n" : " (operand)\n");
    }
  }
}

} // namespace adjoint
