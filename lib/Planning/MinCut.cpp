//===- MinCut.cpp - Minimum vertex cuts -----------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The standard reduction to an edge cut: node v becomes an arc
// In(v) -> Out(v) of v's capacity, edge u -> w an arc Out(u) -> In(w) that is
// never cut, and a super-source and a super-sink feed the sources and drain
// the sinks. Dinic's algorithm finds a max flow; the cut closest to the sinks
// is then read off the residual graph.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Planning/MinCut.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

using namespace llvm;

namespace adjoint {

namespace {

/// A flow network with arcs in pairs: arc A ^ 1 is the reverse of arc A, and
/// Residual holds what can still be pushed along each. Capacities are at most
/// VertexCut::Infinite and pushing stops once that much has been pushed, so
/// no sum of flows can overflow.
class FlowNetwork {
public:
  explicit FlowNetwork(unsigned NumVertices) : NumVertices(NumVertices) {}

  void addArc(unsigned From, unsigned To, uint64_t Capacity) {
    Head.append({To, From});
    Residual.append({std::min(Capacity, VertexCut::Infinite), 0});
  }

  /// Pushes flow from \p S to \p T until none fits or Infinite has been
  /// pushed; returns how much was pushed.
  uint64_t maxFlow(unsigned S, unsigned T);
  uint64_t residual(unsigned Arc) const { return Residual[Arc]; }

  /// The vertices that a breadth-first search from \p Start visits when it
  /// moves from V to Head[A] for each arc A of V such that Follow(A).
  template <typename Pred> BitVector search(unsigned Start, Pred Follow) const {
    BitVector Seen(NumVertices);
    SmallVector<unsigned, 0> Queue{Start};
    Seen.set(Start);
    for (unsigned I = 0; I != Queue.size(); ++I)
      for (unsigned J = Begin[Queue[I]]; J != Begin[Queue[I] + 1]; ++J)
        if (unsigned A = Arcs[J]; Follow(A) && !Seen.test(Head[A])) {
          Seen.set(Head[A]);
          Queue.push_back(Head[A]);
        }
    return Seen;
  }

private:
  static constexpr unsigned Unreached = ~0u;

  unsigned tail(unsigned Arc) const { return Head[Arc ^ 1]; }
  /// Indexes each vertex's arcs: Arcs[Begin[V] .. Begin[V + 1]).
  void buildAdjacency();
  bool buildLevels(unsigned S, unsigned T);
  uint64_t blockingFlow(unsigned S, unsigned T, uint64_t Limit);

  unsigned NumVertices;
  SmallVector<unsigned, 0> Head;
  SmallVector<uint64_t, 0> Residual;
  SmallVector<unsigned, 0> Begin, Arcs, Level, Next;
};

void FlowNetwork::buildAdjacency() {
  Begin.assign(NumVertices + 1, 0);
  for (unsigned A = 0, E = Head.size(); A != E; ++A)
    ++Begin[tail(A) + 1];
  for (unsigned V = 0; V != NumVertices; ++V)
    Begin[V + 1] += Begin[V];
  Arcs.resize(Head.size());
  SmallVector<unsigned, 0> Fill(Begin.begin(), Begin.end() - 1);
  for (unsigned A = 0, E = Head.size(); A != E; ++A)
    Arcs[Fill[tail(A)]++] = A;
}

/// Breadth-first levels from \p S over arcs with residual capacity. A phase
/// only pushes along arcs one level up, that is along shortest paths, and
/// each phase lengthens the shortest path, so there are few phases.
bool FlowNetwork::buildLevels(unsigned S, unsigned T) {
  Level.assign(NumVertices, Unreached);
  SmallVector<unsigned, 0> Queue{S};
  Level[S] = 0;
  for (unsigned I = 0; I != Queue.size(); ++I) {
    unsigned V = Queue[I];
    for (unsigned J = Begin[V]; J != Begin[V + 1]; ++J) {
      unsigned A = Arcs[J];
      if (Residual[A] && Level[Head[A]] == Unreached) {
        Level[Head[A]] = Level[V] + 1;
        Queue.push_back(Head[A]);
      }
    }
  }
  return Level[T] != Unreached;
}

/// Pushes along shortest paths until each has an arc saturated, or until
/// \p Limit has been pushed. The search is iterative, as long dependence
/// chains would overflow the stack, and Next[V] remembers the first arc of V
/// that may still lead to T, so that no arc is retried in vain.
uint64_t FlowNetwork::blockingFlow(unsigned S, unsigned T, uint64_t Limit) {
  Next.assign(Begin.begin(), Begin.end() - 1);
  SmallVector<unsigned, 32> Path;
  uint64_t Pushed = 0;
  unsigned V = S;
  while (true) {
    if (V == T) {
      uint64_t Bottleneck = VertexCut::Infinite;
      for (unsigned A : Path)
        Bottleneck = std::min(Bottleneck, Residual[A]);
      for (unsigned A : Path) {
        Residual[A] -= Bottleneck;
        Residual[A ^ 1] += Bottleneck;
      }
      Pushed += Bottleneck;
      if (Pushed >= Limit)
        return Pushed;
      // Resume from the tail of the first arc this path saturated.
      unsigned Keep = find_if(Path, [&](unsigned A) { return !Residual[A]; }) -
                      Path.begin();
      V = tail(Path[Keep]);
      Path.truncate(Keep);
      continue;
    }
    unsigned &J = Next[V];
    while (J != Begin[V + 1] &&
           !(Residual[Arcs[J]] && Level[Head[Arcs[J]]] == Level[V] + 1))
      ++J;
    if (J != Begin[V + 1]) {
      Path.push_back(Arcs[J]);
      V = Head[Arcs[J]];
      continue;
    }
    // V is a dead end in this phase: back up and skip the arc into it.
    if (V == S)
      return Pushed;
    V = tail(Path.pop_back_val());
    ++Next[V];
  }
}

uint64_t FlowNetwork::maxFlow(unsigned S, unsigned T) {
  buildAdjacency();
  uint64_t Flow = 0;
  while (Flow < VertexCut::Infinite && buildLevels(S, T))
    Flow += blockingFlow(S, T, VertexCut::Infinite - Flow);
  return Flow;
}

} // namespace

unsigned VertexCut::addNode(uint64_t Capacity) {
  Capacities.push_back(Capacity);
  return Capacities.size() - 1;
}

void VertexCut::addEdge(unsigned From, unsigned To) {
  assert(From < size() && To < size() && "edge to an unknown node");
  Edges.emplace_back(From, To);
}

void VertexCut::addSource(unsigned Node) {
  assert(Node < size() && "unknown source");
  Sources.push_back(Node);
}

void VertexCut::addSink(unsigned Node) {
  assert(Node < size() && "unknown sink");
  Sinks.push_back(Node);
}

std::optional<SmallVector<unsigned, 8>> VertexCut::solve() const {
  unsigned N = size();
  auto In = [](unsigned V) { return 2 * V; };
  auto Out = [](unsigned V) { return 2 * V + 1; };
  unsigned S = 2 * N, T = 2 * N + 1;
  FlowNetwork Net(2 * N + 2);
  for (unsigned V = 0; V != N; ++V)
    Net.addArc(In(V), Out(V), Capacities[V]);
  for (auto [From, To] : Edges)
    Net.addArc(Out(From), In(To), Infinite);
  for (unsigned V : Sources)
    Net.addArc(S, In(V), Infinite);
  for (unsigned V : Sinks)
    Net.addArc(Out(V), T, Infinite);

  if (Net.maxFlow(S, T) >= Infinite)
    return std::nullopt;

  // The vertices that still reach T in the residual graph (arc A leaves V,
  // so A ^ 1 enters V from Head[A]) are the smallest sink side of any minimum
  // cut; as the flow is finite, only node arcs cross into it. A zero-capacity
  // node carries no flow, and can sit on that boundary with no source
  // reaching it: leave such nodes out (even arcs are the graph's own).
  BitVector SinkSide =
      Net.search(T, [&](unsigned A) { return Net.residual(A ^ 1) != 0; });
  BitVector FromSource = Net.search(S, [](unsigned A) { return A % 2 == 0; });
  SmallVector<unsigned, 8> Cut;
  for (unsigned V = 0; V != N; ++V)
    if (!SinkSide.test(In(V)) && SinkSide.test(Out(V)) &&
        FromSource.test(In(V)))
      Cut.push_back(V);
  return Cut;
}

} // namespace adjoint
