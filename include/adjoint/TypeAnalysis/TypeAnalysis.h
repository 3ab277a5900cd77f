//===- adjoint/TypeAnalysis/TypeAnalysis.h - What memory holds --*- C++ -*-===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// For a function and the type trees of its arguments, computes a TypeTree
// for every value: which bytes of the value, and of the memory reachable
// from it, are floats (and of which kind), integers, or pointers.
//
// It is a data-flow fixed point over the function in both directions. Facts
// come from
//   - IR types of values: a double is Double, a pointer is Pointer. Integer
//     types state nothing, because optimized IR copies doubles and pointers
//     through i64;
//   - uses: `load double` says its pointer points to Double at [0], integer
//     multiplication and GEP indices say Integer;
//   - TBAA access tags ("double", "int", "any pointer", ...; flang's
//     "descriptor member" on an integer access: a descriptor field);
//   - known library functions (malloc, realloc, memcpy, frexp, sincos...);
// and flow through loads and stores (memory has one type for its whole
// life: flow-insensitive), GEPs (constant offsets shift, variable indices
// repeat with the element stride, or select one of the few elements of a
// fixed-size array they index into), casts, phis and selects, memcpy/memmove
// (both sides get each other's bytes), insertvalue/extractvalue, and calls
// to defined functions: the callee is analyzed with the trees of the call's
// arguments, one summary per (function, argument trees), cached, and
// iterated to a fixed point over recursion.
//
// Every step joins trees, so the result is the least fixed point of
// monotone transfer functions. Trees are capped (TypeTree::MaxDepth,
// TypeTree::MaxEntries) and so is the number of worklist steps; a result
// that hit a cap says so (FunctionTypeInfo::isComplete) and is still sound
// as far as it goes: missing facts show up as Unknown, never as a wrong type.
//
// How synthesis uses it
// ---------------------
// Once per gradient request, with the trees that the activities and IR types
// of fn's parameters imply (TypeTree::fromIRType, plus what is known about
// the pointees):
//
//   TypeAnalyzer &TA = MAM.getResult<TypeAnalysis>(M);  // or a local one
//   const FunctionTypeInfo &Types = TA.analyze(Fn, ArgTrees);
//
// then questions about bytes:
//
//   ByteSummary B = Types.queryAccess(I);  // load, store, memcpy, memset...
//   switch (B.getClass()) {
//   case ByteSummary::Float:     // every byte is a float of B.getFloatKind()
//   case ByteSummary::NonFloat:  // integers and pointers: no derivative
//   case ByteSummary::Mixed:     // a struct: B.segments() says which bytes
//   case ByteSummary::Undecided: // report B.describeUndecided() at I
//   }
//
// queryPointee(Ptr, Off, Size) asks the same about any byte range of the
// memory a pointer points to, queryValue(V) about the bytes of a value (an
// i64 that is really a double says Float). -adjoint-assume-unknown-is-float
// makes the queries report Unknown bytes as floats instead of Undecided.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TYPEANALYSIS_TYPEANALYSIS_H
#define ADJOINT_TYPEANALYSIS_TYPEANALYSIS_H

#include "adjoint/TypeAnalysis/TypeTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>

namespace llvm {
class Function;
class Instruction;
class Module;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace adjoint {

/// Was -adjoint-assume-unknown-is-float given?
bool assumeUnknownIsFloat();

/// The answer to a byte query: the bytes of a range as runs of one type.
class ByteSummary {
public:
  enum Class {
    /// Every byte is part of a floating-point number.
    Float,
    /// Every byte is an integer or a pointer: no derivative.
    NonFloat,
    /// Floats and integers/pointers, nothing undecided: a struct with mixed
    /// fields. segments() says which bytes are which.
    Mixed,
    /// Some bytes are Unknown (no use says what they are) or Anything
    /// (uses disagree). See undecided().
    Undecided,
  };

  ByteSummary() = default;
  explicit ByteSummary(llvm::SmallVector<TypeSegment, 4> Segments)
      : Segments(std::move(Segments)) {}

  /// The queried bytes in order, each run of one type.
  llvm::ArrayRef<TypeSegment> segments() const { return Segments; }
  Class getClass() const;
  bool isFloat() const { return getClass() == Float; }
  bool isNonFloat() const { return getClass() == NonFloat; }
  bool hasFloat() const;
  /// The kind of the floating-point bytes if they are all of one kind;
  /// Unknown if there are none, Anything if there are several.
  ConcreteType getFloatKind() const;
  /// The runs that are Unknown or Anything: what an error names.
  llvm::SmallVector<TypeSegment, 2> undecided() const;
  /// Those runs in words, for a message: "bytes 4..7 have no known type;
  /// byte 0 is used as different types".
  std::string describeUndecided() const;

  /// `[0,4):Integer [8,16):Double`.
  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

private:
  llvm::SmallVector<TypeSegment, 4> Segments;
};

/// The trees of the arguments and of the return value of a function: what
/// a caller knows before a call (the pattern a summary is computed for), or
/// what the callee adds to that knowledge.
struct CallSummary {
  llvm::SmallVector<TypeTree, 4> Args;
  TypeTree Ret;

  bool operator==(const CallSummary &O) const {
    return Args == O.Args && Ret == O.Ret;
  }
  bool operator!=(const CallSummary &O) const { return !(*this == O); }
};

/// The result for one function under one argument pattern.
class FunctionTypeInfo {
public:
  /// For byte queries whose size is not a constant (a memcpy of n * 8
  /// bytes): the summary then covers what the tree describes from the
  /// offset on, its exact entries and one period of its patterns.
  static constexpr int64_t UnknownSize = -1;

  explicit FunctionTypeInfo(const llvm::Function &F);

  const llvm::Function &getFunction() const { return F; }

  /// The tree of \p V: an argument or instruction of the function, or a
  /// global or constant it uses. Empty if nothing is known.
  TypeTree getTree(const llvm::Value *V) const;
  /// What the function's arguments and return value turned out to be.
  const CallSummary &getSummary() const { return Summary; }

  /// The bytes [Off, Off + Size) of the memory that \p Ptr points to (at
  /// most 64 KiB of them are examined: beyond, arrays repeat). \p AccessTy,
  /// the IR type of the access if there is one, chooses the float kind that
  /// Unknown bytes get under -adjoint-assume-unknown-is-float.
  ByteSummary queryPointee(const llvm::Value *Ptr, int64_t Off, int64_t Size,
                           llvm::Type *AccessTy = nullptr) const;
  /// The bytes of the value \p V itself (its store size).
  ByteSummary queryValue(const llvm::Value *V) const;
  /// The bytes that \p I reads or writes: a load, store, atomicrmw,
  /// cmpxchg, memcpy, memmove or memset. For other instructions, an empty
  /// summary. Padding is Integer (it carries no derivative) where the
  /// access says which bytes are fields: the members of a struct-typed load
  /// or store, the fields clang lists in a memcpy's !tbaa.struct.
  ByteSummary queryAccess(const llvm::Instruction &I) const;

  /// False if a cap stopped the fixed point early; the trees are then
  /// still right but may miss facts.
  bool isComplete() const { return Complete; }

  /// `types of 'f':` then one line per argument, instruction with a result,
  /// and the return value: `  %v = load: {[]:Double}`.
  void print(llvm::raw_ostream &OS) const;

private:
  friend class TypeAnalyzer;

  /// queryAccess without the padding rule.
  ByteSummary queryAccessBytes(const llvm::Instruction &I) const;

  const llvm::Function &F;
  llvm::DenseMap<const llvm::Value *, TypeTree> Trees;
  CallSummary Summary;
  bool Complete = true;
};

/// The interprocedural analysis: owns the summaries of every analyzed
/// (function, argument pattern), so that asking again is free. Results stay
/// valid until the module changes; then call clear().
class TypeAnalyzer {
public:
  TypeAnalyzer();
  ~TypeAnalyzer();
  TypeAnalyzer(TypeAnalyzer &&);
  TypeAnalyzer &operator=(TypeAnalyzer &&);

  /// Analyzes \p F when its arguments have the trees \p Args (missing or
  /// empty ones: only what their IR types say) and its caller expects the
  /// tree \p Ret of the return value. The reference stays valid until
  /// clear().
  const FunctionTypeInfo &analyze(const llvm::Function &F,
                                  llvm::ArrayRef<TypeTree> Args = {},
                                  const TypeTree &Ret = TypeTree());

  /// Drops every summary.
  void clear();
  /// With false, calls to defined functions teach nothing (as calls to
  /// unknown declarations): a cheap, intraprocedural answer, e.g. for what a
  /// caller did with memory before passing it on. True by default.
  void setFollowCalls(bool Follow);
  /// How many summaries are cached (for tests).
  unsigned getNumSummaries() const;

  /// New pass manager: the module changed unless this analysis is
  /// preserved.
  bool invalidate(llvm::Module &M, const llvm::PreservedAnalyses &PA,
                  llvm::ModuleAnalysisManager::Invalidator &Inv);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// The analysis as the new pass manager knows it. Register it with
/// `MAM.registerPass([] { return TypeAnalysis(); })`, then
/// `MAM.getResult<TypeAnalysis>(M).analyze(F, ArgTrees)` per gradient
/// request.
class TypeAnalysis : public llvm::AnalysisInfoMixin<TypeAnalysis> {
public:
  using Result = TypeAnalyzer;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<TypeAnalysis>;
  static llvm::AnalysisKey Key;
};

/// `opt -passes='print<adjoint-types>'`: for every defined function, with
/// the argument trees that its IR types state, prints the tree of each
/// argument, instruction and of the return value (to the stream given,
/// stdout in the plugin).
class TypeAnalysisPrinterPass
    : public llvm::PassInfoMixin<TypeAnalysisPrinterPass> {
public:
  explicit TypeAnalysisPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace adjoint

#endif // ADJOINT_TYPEANALYSIS_TYPEANALYSIS_H
