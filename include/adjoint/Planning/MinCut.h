//===- adjoint/Planning/MinCut.h - Minimum vertex cuts ----------*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The reverse pass needs primal values that the forward pass computed. Each
// one is either cached (it costs memory) or recomputed from other values,
// which must themselves be cached or recomputed, back to values that cannot
// be recomputed. The cheapest choice is a minimum vertex cut between those
// values and the needed ones, which this file computes with a max flow.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PLANNING_MINCUT_H
#define ADJOINT_PLANNING_MINCUT_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace adjoint {

/// A directed graph whose nodes have capacities; finds a set of nodes of least
/// total capacity that every path from a source to a sink goes through.
/// Models cache planning: nodes are primal values, capacities the bytes it
/// costs to cache them, edges "operand -> user" where the user can be
/// recomputed from the operand, sources the values that cannot be recomputed,
/// sinks the values the reverse pass needs. A node can be both a source and a
/// sink (then it must be cut).
class VertexCut {
public:
  /// The capacity of a node that must never be cut. Capacities at or above it
  /// count as Infinite, and so does a cut whose total reaches it. It is small
  /// enough that adding two capacities below it never overflows.
  static constexpr uint64_t Infinite = uint64_t(1) << 62;

  /// Adds a node and returns its id; ids are 0, 1, 2, ... in order.
  unsigned addNode(uint64_t Capacity);
  /// \p To can be recomputed from \p From (among others).
  void addEdge(unsigned From, unsigned To);
  /// \p Node cannot be recomputed: it is cut or all paths from it are.
  void addSource(unsigned Node);
  /// \p Node is needed: it is cut or all paths to it are.
  void addSink(unsigned Node);
  unsigned size() const { return Capacities.size(); }

  /// The cut: node ids, sorted ascending. Among cuts of least capacity, the
  /// one closest to the sinks (so that the reverse pass recomputes as little
  /// as possible): every node that it leaves connected to a sink is connected
  /// to a sink by every other cut of least capacity too. It may include
  /// zero-capacity nodes that a smaller cut could leave out, since caching
  /// them is free and spares recomputing them. Empty when no source reaches a
  /// sink. If every separating set has infinite capacity, returns
  /// std::nullopt.
  ///
  /// Computes a max flow with Dinic's algorithm, which is close to linear on
  /// graphs shaped like IR.
  std::optional<llvm::SmallVector<unsigned, 8>> solve() const;

private:
  llvm::SmallVector<uint64_t, 32> Capacities;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 32> Edges;
  llvm::SmallVector<unsigned, 8> Sources;
  llvm::SmallVector<unsigned, 8> Sinks;
};

} // namespace adjoint

#endif // ADJOINT_PLANNING_MINCUT_H
