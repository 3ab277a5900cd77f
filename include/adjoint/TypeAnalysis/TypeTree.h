//===- adjoint/TypeAnalysis/TypeTree.h - Types of values and memory -*- C++ -*-//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Optimized IR forgets what memory holds: pointers are opaque, a struct copy
// becomes `load i64` / `store i64` or a memcpy of bytes. Synthesis still has to
// know which bytes are floating-point numbers, because only those carry
// derivatives. A TypeTree records that knowledge for one value: a map from an
// access path to a ConcreteType.
//
// Paths
// -----
// A path is a sequence of offsets. Its first element is a byte offset into
// the memory the value points to, the next one a byte offset into the memory
// that the pointer stored there points to, and so on:
//
//   []       the value itself
//   [8]      the bytes at offset 8 of the memory the value points to
//   [0, 16]  offset 16 of the memory pointed to by the pointer stored at [0]
//
// Values that have no single type (integers, vectors, arrays, structs) are
// described by their bytes instead, as if they were stored at offset 0 of
// memory: [k] is byte k of the value. An i64 that copies a double is
// {[0]:Double}, exactly like the memory it was loaded from, and an i64
// holding a pointer is {[0]:Pointer, [0, ...]: what it points to}. Only
// pointers and floating-point scalars use [] (see TypeTree::usesRoot).
//
// Offsets and arrays
// ------------------
// An offset is either exact (a byte offset >= 0) or a pattern "every offset
// congruent to B modulo S" (0 <= B < S), written [Sn+B]. A pattern describes
// an array of unknown length with element size S, seen from anywhere inside
// it: an array of {i32, double} is {[16n+0..3]:Integer, [16n+8]:Double}.
// The pattern with S = 1 is "every offset", written [-1]; that is the -1 of
// the interface (Offset::every()). A byte-offset GEP with an unknown index
// gives it, and so does a pattern whose every residue has the same type (an
// array of ints is [-1]:Integer). [-1]:Double says a double starts at every
// offset; byte queries take it as "every byte is part of a double".
// Patterns only make statements about offsets >= 0; bytes before the
// address are never described.
//
// An exact entry and a pattern that contains it both apply: the type at an
// offset is the join of every entry whose offset contains it. The tree is
// kept in a canonical form in which no entry is implied by another single
// entry: an exact entry under a pattern of the same type is dropped, and one
// under a pattern of a different type becomes Anything (what a lookup would
// give anyway).
//
// Sizes
// -----
// An entry sits at the first byte of what it describes. Floating-point types
// and pointers cover their allocation size (a double covers [k, k+8), an
// x86_fp80 [k, k+16) on x86-64, including its padding), so "what is at byte
// k" needs the DataLayout: see typeAtByte and byteSegments. Integers have no
// natural size, so every byte of an integer is marked Integer on its own:
// an int field at offset 4 is [4..7]:Integer (printed compactly).
//
// Caps
// ----
// Recursive data structures would make trees infinite, so paths are at most
// MaxDepth long and a tree holds at most MaxEntries entries; information
// beyond those caps is dropped, never guessed: queries then answer Unknown.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TYPEANALYSIS_TYPETREE_H
#define ADJOINT_TYPEANALYSIS_TYPETREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class DataLayout;
class LLVMContext;
class Type;
class raw_ostream;
} // namespace llvm

namespace adjoint {

/// What a byte (or a value) holds. A lattice:
///
///   Unknown  <  Integer, Pointer, Half, BFloat, Float, Double, X86_FP80,
///               FP128, PPC_FP128  <  Anything
///
/// Unknown is the bottom (no information yet), Anything the top (uses
/// disagree: a union, or bytes used both as integer and as float). The
/// elements in between are pairwise incomparable, so the join of two
/// different ones is Anything.
class ConcreteType {
public:
  enum Kind : uint8_t {
    Unknown,
    Integer,
    Pointer,
    Half,
    BFloat,
    Float,
    Double,
    X86_FP80,
    FP128,
    PPC_FP128,
    Anything,
  };

  constexpr ConcreteType(Kind K = Unknown) : K(K) {}

  /// The concrete type that an IR type states: its floating-point kind, or
  /// Pointer. Integer IR types state nothing (Unknown): optimized IR copies
  /// doubles and pointers through integers, so only uses can tell.
  static ConcreteType fromIRType(const llvm::Type *T);

  /// The floating-point kind whose allocation size is \p Bytes on the usual
  /// targets (2: Half, 4: Float, 8: Double, 16: FP128), else Unknown. For
  /// guessing the kind of bytes that a caller chose to assume are floats.
  static ConcreteType floatOfSize(uint64_t Bytes);

  Kind getKind() const { return K; }
  bool isKnown() const { return K != Unknown; }
  bool isFloat() const { return K >= Half && K <= PPC_FP128; }
  /// Integer or Pointer: known to carry no derivative.
  bool isNonFloat() const { return K == Integer || K == Pointer; }

  /// The IR type of a floating-point kind, null for the others.
  llvm::Type *getIRType(llvm::LLVMContext &Ctx) const;

  /// How many bytes an entry of this type covers: the allocation size of a
  /// floating-point type or a pointer, 1 for the others.
  uint64_t getSizeInBytes(const llvm::DataLayout &DL) const;

  /// The least upper bound.
  static ConcreteType join(ConcreteType A, ConcreteType B) {
    if (A.K == B.K || B.K == Unknown)
      return A;
    if (A.K == Unknown)
      return B;
    return Anything;
  }
  /// Joins \p Other into this type; returns whether it changed.
  bool joinWith(ConcreteType Other) {
    ConcreteType J = join(*this, Other);
    bool Changed = J.K != K;
    K = J.K;
    return Changed;
  }
  /// Is this at least as high in the lattice as \p Other?
  bool covers(ConcreteType Other) const {
    return K == Other.K || K == Anything || Other.K == Unknown;
  }

  llvm::StringRef getName() const;

  bool operator==(ConcreteType O) const { return K == O.K; }
  bool operator!=(ConcreteType O) const { return K != O.K; }

private:
  Kind K;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, ConcreteType T);

/// A run of bytes of one type: what a byte query answers.
struct TypeSegment {
  int64_t Offset;
  int64_t Size;
  ConcreteType Type;

  bool operator==(const TypeSegment &O) const {
    return Offset == O.Offset && Size == O.Size && Type == O.Type;
  }
};

class TypeTree {
public:
  /// One element of a path: an exact byte offset, or every offset congruent
  /// to Base modulo Stride.
  class Offset {
  public:
    /// The byte offset \p Off (>= 0).
    static Offset exact(int64_t Off) { return Offset(Off, 0); }
    /// Every offset congruent to \p Base modulo \p Stride (> 0).
    static Offset pattern(int64_t Stride, int64_t Base);
    /// Every offset: the -1 of the interface.
    static Offset every() { return Offset(0, 1); }

    bool isExact() const { return Stride == 0; }
    bool isEvery() const { return Stride == 1; }
    int64_t getBase() const { return Base; }
    /// 0 for an exact offset.
    int64_t getStride() const { return Stride; }

    /// Does this offset include the byte offset \p Off?
    bool contains(int64_t Off) const;
    /// Does every offset of \p O belong to this one?
    bool contains(Offset O) const;

    /// "8", "16n+8", "16n", or "-1".
    void print(llvm::raw_ostream &OS) const;

    bool operator==(Offset O) const {
      return Base == O.Base && Stride == O.Stride;
    }
    bool operator!=(Offset O) const { return !(*this == O); }
    /// Printing order: -1 first, then by base, exact before patterns.
    bool operator<(Offset O) const;

  private:
    Offset(int64_t Base, int64_t Stride) : Base(Base), Stride(Stride) {}
    int64_t Base;
    int64_t Stride;
  };

  using Path = llvm::SmallVector<Offset, 2>;

  struct Entry {
    Path Key;
    ConcreteType Type;
  };

  /// Paths longer than this are dropped: enough for a pointer to a struct
  /// holding a pointer to an array of structs holding pointers...
  static constexpr unsigned MaxDepth = 6;
  /// Entries beyond this many are dropped.
  static constexpr unsigned MaxEntries = 512;
  /// A pattern clipped to a window of at most this many periods becomes
  /// exact entries; in a larger window it stays a pattern (an array).
  static constexpr int64_t MaxExpandedPeriods = 16;
  /// shift's Size when the window is unbounded.
  static constexpr int64_t Unbounded = -1;

  TypeTree() = default;

  /// The tree of a single type at the value itself: {[]:T}.
  static TypeTree ofRoot(ConcreteType T);

  /// What an IR type states about a value of that type: {[]:Double} for a
  /// double, {[]:Pointer} for a pointer, the float and pointer bytes of
  /// vectors, arrays and structs, and nothing for integers (see
  /// ConcreteType::fromIRType). Arrays of more than MaxExpandedPeriods
  /// elements become patterns at the outermost level; nested ones are
  /// described up to that many elements.
  static TypeTree fromIRType(llvm::Type *T, const llvm::DataLayout &DL);

  /// What an IR type states about memory holding a value of that type: the
  /// tree of a pointer to it, without the pointer itself. For scalars this
  /// is fromIRType(T).only(0); aggregates are already described by bytes.
  static TypeTree fromMemoryType(llvm::Type *T, const llvm::DataLayout &DL);

  /// The bytes of a C struct that hold no derivative: its integer fields and
  /// its padding, as Integer. Only for the named struct and class types that
  /// clang gives stack and global objects (`struct.S`, `class.C`, arrays of
  /// them), whose fields are the source's; unions and other types say
  /// nothing (an empty tree), since optimized code moves floats in integers.
  static TypeTree nonFloatBytesOfObject(llvm::Type *T,
                                        const llvm::DataLayout &DL);

  /// Does a value of type \p T use [] for itself (pointers and
  /// floating-point scalars), or is it described by its bytes?
  static bool usesRoot(const llvm::Type *T);

  bool empty() const { return Entries.empty(); }
  size_t size() const { return Entries.size(); }
  llvm::ArrayRef<Entry> entries() const { return Entries; }

  /// Joins \p T into the type at \p Key; returns whether the tree changed.
  bool insert(llvm::ArrayRef<Offset> Key, ConcreteType T);
  /// insert() with exact offsets, -1 meaning every offset.
  bool insert(llvm::ArrayRef<int64_t> Key, ConcreteType T);
  /// Marks bytes [Off, Off + Size) Integer, one entry per byte.
  bool insertIntegerBytes(int64_t Off, int64_t Size);
  /// Joins every entry of \p Other into this tree (closed: the result is
  /// again canonical); returns whether the tree changed.
  bool merge(const TypeTree &Other);

  /// The type at a concrete path: the join of every entry whose offsets
  /// contain the path's offsets. -1 in \p Key asks for the type at every
  /// offset, which only [-1] entries state.
  ConcreteType lookup(llvm::ArrayRef<int64_t> Key) const;
  /// lookup({}): the type of the value itself.
  ConcreteType getRoot() const { return lookup({}); }

  /// The tree of the pointer p + \p Off, from the tree of p: first-level
  /// offsets move down by \p Off (those that become negative are dropped),
  /// patterns are rebased, the root is kept. When \p Size is not Unbounded,
  /// only first-level offsets in [0, Size) are kept: the bytes that an
  /// access of that size at p + Off touches.
  TypeTree shift(int64_t Off, int64_t Size = Unbounded) const;

  /// The tree of a pointer to memory holding, at byte \p Off, a value of
  /// this tree: every path P becomes [Off, P...]. The new pointer's own
  /// type ([]:Pointer) is not added.
  TypeTree only(int64_t Off) const;

  /// The tree of the value loaded from byte \p Off of the memory this tree's
  /// value points to: the entries under every first-level offset that
  /// contains \p Off, with that offset removed. The inverse of only().
  TypeTree dereference(int64_t Off) const;

  /// The tree of p + i * Stride for an unknown i, from the tree of p: every
  /// first-level offset becomes a pattern with period \p Stride (a pattern
  /// of another period gets the gcd of both). Stride 1 gives -1 (every
  /// offset). This also serves backwards: p gains repeat() of p + i*Stride.
  TypeTree repeat(int64_t Stride) const;

  /// This tree without its root entry.
  TypeTree withoutRoot() const;

  /// The type covering byte \p Byte of the memory at path \p Prefix (for
  /// Prefix = {} the memory this value points to, or the bytes of a value
  /// described by bytes): the join over entries at that level whose extent
  /// (ConcreteType::getSizeInBytes) includes the byte. Unknown if none.
  ConcreteType typeAtByte(llvm::ArrayRef<int64_t> Prefix, int64_t Byte,
                          const llvm::DataLayout &DL) const;

  /// The bytes [Off, Off + Size) at path \p Prefix as maximal runs of one
  /// type (Unknown runs included), in order. Overlapping entries of
  /// different types make their common bytes Anything. At most the first
  /// 65536 bytes of the range are described.
  void byteSegments(llvm::ArrayRef<int64_t> Prefix, int64_t Off, int64_t Size,
                    const llvm::DataLayout &DL,
                    llvm::SmallVectorImpl<TypeSegment> &Out) const;

  /// The end of the last exact first-level entry (offset plus extent), and
  /// the least common multiple of the first-level patterns' periods (0 if
  /// none, capped): how far into memory this tree says something new.
  void extent(const llvm::DataLayout &DL, int64_t &ExactEnd,
              int64_t &Period) const;

  /// `{[]:Pointer, [0]:Double, [8..11]:Integer, [16n+8]:Float}`: entries in
  /// path order, runs of consecutive single-byte entries of one type
  /// written as a range.
  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

  bool operator==(const TypeTree &O) const;
  bool operator!=(const TypeTree &O) const { return !(*this == O); }

private:
  /// Entries sorted by path; none is Unknown, none is implied by another.
  llvm::SmallVector<Entry, 4> Entries;
  /// Does any key contain a pattern? Without one, insertion is a binary
  /// search.
  bool HasPatterns = false;

  bool insertPattern(llvm::ArrayRef<Offset> Key, ConcreteType T);
  void collapsePatterns(llvm::ArrayRef<Offset> Key, ConcreteType T);
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const TypeTree &T);

} // namespace adjoint

#endif // ADJOINT_TYPEANALYSIS_TYPETREE_H
