//===- MinCutTest.cpp - Minimum vertex cuts for cache planning ------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The cut decides what the reverse pass caches, so two things matter: its
// capacity is least (the cache is as small as it can be), and among the
// cheapest cuts it is the one closest to the needed values (the reverse pass
// recomputes as little as it can). Small graphs pin both by hand; random
// graphs are checked against brute force over every subset of nodes.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Planning/MinCut.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include <random>

using namespace llvm;
using namespace adjoint;

namespace {

using Cut = SmallVector<unsigned, 8>;
constexpr uint64_t Inf = VertexCut::Infinite;

/// A graph as the tests describe it: nodes with capacities, edges, and which
/// nodes are sources and sinks.
struct Graph {
  SmallVector<uint64_t, 16> Caps;
  SmallVector<std::pair<unsigned, unsigned>, 32> Edges;
  SmallVector<unsigned, 8> Sources, Sinks;

  std::optional<Cut> solve() const {
    VertexCut VC;
    for (uint64_t C : Caps)
      VC.addNode(C);
    for (auto [From, To] : Edges)
      VC.addEdge(From, To);
    for (unsigned V : Sources)
      VC.addSource(V);
    for (unsigned V : Sinks)
      VC.addSink(V);
    EXPECT_EQ(VC.size(), Caps.size());
    return VC.solve();
  }

  /// The capacity of the nodes in \p Cut, saturating at Infinite.
  uint64_t capacity(const BitVector &Cut) const {
    uint64_t Sum = 0;
    for (unsigned V : Cut.set_bits())
      Sum = std::min(Inf, Sum + std::min(Inf, Caps[V]));
    return Sum;
  }

  /// The nodes outside \p Cut that reach a sink (through, or being, one)
  /// without going through \p Cut; with Backward false, those that a source
  /// reaches. Cut separates when no sink is reached from a source.
  BitVector reach(const BitVector &Cut, bool Backward) const {
    BitVector Seen(Caps.size());
    SmallVector<unsigned, 16> Work;
    for (unsigned V : Backward ? Sinks : Sources)
      if (!Cut.test(V) && !Seen.test(V)) {
        Seen.set(V);
        Work.push_back(V);
      }
    while (!Work.empty()) {
      unsigned V = Work.pop_back_val();
      for (auto [From, To] : Edges) {
        unsigned Here = Backward ? To : From, There = Backward ? From : To;
        if (Here == V && !Cut.test(There) && !Seen.test(There)) {
          Seen.set(There);
          Work.push_back(There);
        }
      }
    }
    return Seen;
  }

  bool separates(const BitVector &Cut) const {
    BitVector FromSources = reach(Cut, /*Backward=*/false);
    return none_of(Sinks, [&](unsigned V) { return FromSources.test(V); });
  }
};

BitVector asSet(const Cut &C, unsigned N) {
  BitVector Set(N);
  for (unsigned V : C)
    Set.set(V);
  return Set;
}

TEST(MinCutTest, ChainCutsNextToTheSink) {
  // a(8) -> b(8) -> c(8): any one node will do; caching c recomputes nothing.
  Graph G{{8, 8, 8}, {{0, 1}, {1, 2}}, {0}, {2}};
  EXPECT_EQ(G.solve(), Cut({2}));
}

TEST(MinCutTest, ChainCutsTheCheapestNode) {
  Graph G{{8, 4, 16}, {{0, 1}, {1, 2}}, {0}, {2}};
  EXPECT_EQ(G.solve(), Cut({1}));
}

TEST(MinCutTest, ExpensiveSourceFeedingCheapNeededValues) {
  // A 64-byte a feeds two 8-byte needed values: caching both is cheaper.
  Graph G{{64, 8, 8}, {{0, 1}, {0, 2}}, {0}, {1, 2}};
  EXPECT_EQ(G.solve(), Cut({1, 2}));
}

TEST(MinCutTest, CheapIntermediateFeedingExpensiveNeededValues) {
  // a(64) -> m(8) -> {b(16), c(16)}: cache m, recompute b and c from it.
  Graph G{{64, 8, 16, 16}, {{0, 1}, {1, 2}, {1, 3}}, {0}, {2, 3}};
  EXPECT_EQ(G.solve(), Cut({1}));
}

TEST(MinCutTest, TiesGoToTheCutClosestToTheSinks) {
  // a(16) -> {b(8), c(8)} -> d(16): {a}, {b, c} and {d} all cost 16.
  Graph Diamond{{16, 8, 8, 16}, {{0, 1}, {0, 2}, {1, 3}, {2, 3}}, {0}, {3}};
  EXPECT_EQ(Diamond.solve(), Cut({3}));
  // a(16) -> {b(8), c(8)}, both needed: {b, c} costs as much as {a} and
  // leaves nothing to recompute.
  Graph Fork{{16, 8, 8}, {{0, 1}, {0, 2}}, {0}, {1, 2}};
  EXPECT_EQ(Fork.solve(), Cut({1, 2}));
  // A cheaper cut still wins over a closer one.
  Graph Cheaper{{16, 4, 8, 16}, {{0, 1}, {1, 2}, {2, 3}}, {0}, {3}};
  EXPECT_EQ(Cheaper.solve(), Cut({1}));
}

TEST(MinCutTest, NodeThatIsSourceAndSinkIsCut) {
  // a is needed and cannot be recomputed; caching it also covers b.
  Graph G{{8, 4}, {{0, 1}}, {0}, {0, 1}};
  EXPECT_EQ(G.solve(), Cut({0}));
  // Beside it, a chain b(8) -> c(2) is cut at c.
  Graph H{{8, 8, 2}, {{1, 2}}, {0, 1}, {0, 2}};
  EXPECT_EQ(H.solve(), Cut({0, 2}));
}

TEST(MinCutTest, InfiniteNodesAreNeverCut) {
  // The source cannot be cached, so the cut moves downstream.
  Graph G{{Inf, 8, 16}, {{0, 1}, {1, 2}}, {0}, {2}};
  EXPECT_EQ(G.solve(), Cut({1}));
  Graph H{{Inf, Inf, 8}, {{0, 1}, {1, 2}}, {0}, {2}};
  EXPECT_EQ(H.solve(), Cut({2}));
  // Capacities above Infinite are Infinite too.
  Graph I{{~uint64_t(0), 32, 16}, {{0, 1}, {0, 2}}, {0}, {1, 2}};
  EXPECT_EQ(I.solve(), Cut({1, 2}));
}

TEST(MinCutTest, NoPathGivesAnEmptyCut) {
  EXPECT_EQ(Graph().solve(), Cut());
  Graph G{{8, 8, 8}, {{1, 2}}, {0}, {1}};
  EXPECT_EQ(G.solve(), Cut());
  // Zero-capacity nodes that no source reaches are not cut either.
  Graph H{{8, 0, 8}, {{1, 2}}, {0}, {2}};
  EXPECT_EQ(H.solve(), Cut());
}

TEST(MinCutTest, ZeroCapacityNodesAreFreeToCut) {
  Graph G{{8, 0, 8}, {{0, 1}, {1, 2}}, {0}, {2}};
  EXPECT_EQ(G.solve(), Cut({1}));
}

TEST(MinCutTest, OnlyInfiniteSeparatorsGiveNullopt) {
  Graph G{{Inf, Inf}, {{0, 1}}, {0}, {1}};
  EXPECT_EQ(G.solve(), std::nullopt);
  Graph Both{{Inf}, {}, {0}, {0}};
  EXPECT_EQ(Both.solve(), std::nullopt);
  // A cut of finite nodes whose total reaches Infinite counts as infinite.
  Graph Sum{{Inf, Inf / 2, Inf / 2}, {{0, 1}, {0, 2}}, {0}, {1, 2}};
  EXPECT_EQ(Sum.solve(), std::nullopt);
  Graph Below{{Inf, Inf / 2, Inf / 2 - 1}, {{0, 1}, {0, 2}}, {0}, {1, 2}};
  EXPECT_EQ(Below.solve(), Cut({1, 2}));
}

TEST(MinCutTest, LargeLayeredGraph) {
  // 1000 layers of 10 nodes, each node feeding the whole next layer; layers
  // 300 and 700 are the cheapest, and 700 is closer to the sinks.
  constexpr unsigned Layers = 1000, Width = 10;
  VertexCut VC;
  for (unsigned L = 0; L != Layers; ++L)
    for (unsigned I = 0; I != Width; ++I)
      VC.addNode(L == 300 || L == 700 ? 1 : 2);
  for (unsigned L = 0; L + 1 != Layers; ++L)
    for (unsigned I = 0; I != Width; ++I)
      for (unsigned J = 0; J != Width; ++J)
        VC.addEdge(L * Width + I, (L + 1) * Width + J);
  for (unsigned I = 0; I != Width; ++I) {
    VC.addSource(I);
    VC.addSink((Layers - 1) * Width + I);
  }
  Cut Expected;
  for (unsigned I = 0; I != Width; ++I)
    Expected.push_back(700 * Width + I);
  EXPECT_EQ(VC.solve(), Expected);
}

TEST(MinCutTest, RandomGraphsMatchBruteForce) {
  std::mt19937 Rng(20240519);
  const uint64_t CapChoices[] = {1, 2, 3, 4, 8, Inf};
  for (unsigned Instance = 0; Instance != 300; ++Instance) {
    // A third of the instances have zero capacities, for which the cut is
    // least but need not be the closest one (see VertexCut::solve).
    bool Zeros = Instance % 3 == 0;
    Graph G;
    unsigned N = 3 + Rng() % 8;
    for (unsigned V = 0; V != N; ++V)
      G.Caps.push_back(Zeros && Rng() % 4 == 0 ? 0 : CapChoices[Rng() % 6]);
    for (unsigned From = 0; From != N; ++From)
      for (unsigned To = From + 1; To != N; ++To)
        if (Rng() % 10 < 4)
          G.Edges.emplace_back(From, To);
    // Sources tend to come early and sinks late, so most graphs need a cut.
    for (unsigned V = 0; V != N; ++V) {
      if (Rng() % N >= V && Rng() % 2)
        G.Sources.push_back(V);
      if (Rng() % N <= V && Rng() % 2)
        G.Sinks.push_back(V);
    }
    if (G.Sources.empty())
      G.Sources.push_back(Rng() % N);
    if (G.Sinks.empty())
      G.Sinks.push_back(Rng() % N);
    SCOPED_TRACE("instance " + std::to_string(Instance));

    uint64_t Best = Inf;
    SmallVector<BitVector, 16> BestCuts;
    for (unsigned Mask = 0; Mask != 1u << N; ++Mask) {
      BitVector Set(N);
      for (unsigned V = 0; V != N; ++V)
        if (Mask >> V & 1)
          Set.set(V);
      uint64_t Cap = G.capacity(Set);
      if (Cap > Best || Cap == Inf || !G.separates(Set))
        continue;
      if (Cap < Best)
        BestCuts.clear();
      Best = Cap;
      BestCuts.push_back(Set);
    }

    std::optional<Cut> Result = G.solve();
    if (Best == Inf) {
      EXPECT_EQ(Result, std::nullopt);
      continue;
    }
    ASSERT_TRUE(Result.has_value());
    EXPECT_TRUE(is_sorted(*Result) &&
                std::adjacent_find(Result->begin(), Result->end()) ==
                    Result->end());
    BitVector Set = asSet(*Result, N);
    EXPECT_TRUE(G.separates(Set));
    EXPECT_EQ(G.capacity(Set), Best);
    if (Zeros)
      continue;
    // Closest to the sinks: whatever it leaves to recompute, every other
    // cheapest cut does too.
    BitVector Recomputed = G.reach(Set, /*Backward=*/true);
    for (const BitVector &Other : BestCuts) {
      BitVector Extra = Recomputed;
      Extra.reset(G.reach(Other, /*Backward=*/true));
      EXPECT_TRUE(Extra.none());
    }
  }
}

} // namespace
