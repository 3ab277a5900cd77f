//===- TypeTree.cpp - Types of values and memory ----------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/TypeAnalysis/TypeTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace llvm;

namespace adjoint {

namespace {

/// The remainder of \p A by \p M in [0, M), also for negative \p A.
int64_t floorMod(int64_t A, int64_t M) {
  int64_t R = A % M;
  return R < 0 ? R + M : R;
}

/// Periods beyond this are not worth tracking: lcm() saturates here.
constexpr int64_t MaxPeriod = 4096;

/// Queries look at no more bytes than this at once.
constexpr int64_t MaxQueryBytes = 1 << 16;

/// The allocation size of x86_fp80 under \p DL. The DataLayout answers that
/// only for a Type, which needs a context, so read the alignment from its
/// string form ("f80:128" on x86-64, "f80:32" on i386); LLVM's default is
/// 128 bits.
uint64_t x86FP80AllocSize(const DataLayout &DL) {
  StringRef Rep = DL.getStringRepresentation();
  uint64_t AlignBits = 128;
  size_t Pos = Rep.find("f80:");
  if (Pos != StringRef::npos) {
    StringRef Spec = Rep.substr(Pos + 4);
    Spec = Spec.take_while([](char C) { return C >= '0' && C <= '9'; });
    uint64_t Parsed;
    if (!Spec.getAsInteger(10, Parsed) && Parsed >= 8)
      AlignBits = Parsed;
  }
  return alignTo(10, AlignBits / 8);
}

bool keyLess(ArrayRef<TypeTree::Offset> A, ArrayRef<TypeTree::Offset> B) {
  return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end());
}

/// Does every path of \p A's key match a path of \p B's key?
bool keyContains(ArrayRef<TypeTree::Offset> A, ArrayRef<TypeTree::Offset> B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0, E = A.size(); I != E; ++I)
    if (!A[I].contains(B[I]))
      return false;
  return true;
}

/// Does \p Key match the concrete path \p Path (-1: only [-1] matches)?
bool keyMatches(ArrayRef<TypeTree::Offset> Key, ArrayRef<int64_t> Path) {
  if (Key.size() != Path.size())
    return false;
  for (size_t I = 0, E = Key.size(); I != E; ++I) {
    if (Path[I] < 0 ? !Key[I].isEvery() : !Key[I].contains(Path[I]))
      return false;
  }
  return true;
}

bool isExactKey(ArrayRef<TypeTree::Offset> Key) {
  return all_of(Key, [](TypeTree::Offset O) { return O.isExact(); });
}

/// Is \p T, or some part of it, a floating-point number or a pointer: does a
/// value of this type say anything about types?
bool mentionsFloatOrPointer(Type *T) {
  if (T->isFloatingPointTy() || T->isPointerTy())
    return true;
  if (auto *VT = dyn_cast<VectorType>(T))
    return mentionsFloatOrPointer(VT->getElementType());
  if (auto *AT = dyn_cast<ArrayType>(T))
    return mentionsFloatOrPointer(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), mentionsFloatOrPointer);
  return false;
}

/// Adds what the IR type \p T states about memory holding a value of it at
/// byte \p Off. Arrays are laid out element by element, at most
/// MaxExpandedPeriods of them; a large outermost array becomes a pattern.
void addMemoryType(TypeTree &Tree, Type *T, int64_t Off, const DataLayout &DL,
                   bool Outermost) {
  if (!mentionsFloatOrPointer(T) || Tree.size() >= TypeTree::MaxEntries)
    return;
  ConcreteType CT = ConcreteType::fromIRType(T);
  if (CT.isKnown()) {
    Tree.insert({TypeTree::Offset::exact(Off)}, CT);
    return;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    uint64_t Bits = DL.getTypeSizeInBits(VT->getElementType());
    if (Bits % 8 != 0)
      return;
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      addMemoryType(Tree, VT->getElementType(), Off + I * (Bits / 8), DL,
                    false);
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    if (ST->isOpaque())
      return;
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I)
      addMemoryType(Tree, ST->getElementType(I),
                    Off + SL->getElementOffset(I).getFixedValue(), DL, false);
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    Type *Elt = AT->getElementType();
    int64_t Stride = DL.getTypeAllocSize(Elt).getFixedValue();
    if (Stride == 0)
      return;
    uint64_t N = AT->getNumElements();
    if (Outermost && N > uint64_t(TypeTree::MaxExpandedPeriods)) {
      TypeTree Element;
      addMemoryType(Element, Elt, 0, DL, false);
      Tree.merge(Element.repeat(Stride).shift(-Off));
      return;
    }
    N = std::min<uint64_t>(N, TypeTree::MaxExpandedPeriods);
    for (uint64_t I = 0; I != N; ++I)
      addMemoryType(Tree, Elt, Off + I * Stride, DL, false);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// ConcreteType
//===----------------------------------------------------------------------===//

ConcreteType ConcreteType::fromIRType(const Type *T) {
  switch (T->getTypeID()) {
  case Type::HalfTyID:
    return Half;
  case Type::BFloatTyID:
    return BFloat;
  case Type::FloatTyID:
    return Float;
  case Type::DoubleTyID:
    return Double;
  case Type::X86_FP80TyID:
    return X86_FP80;
  case Type::FP128TyID:
    return FP128;
  case Type::PPC_FP128TyID:
    return PPC_FP128;
  case Type::PointerTyID:
    return Pointer;
  default:
    return Unknown;
  }
}

ConcreteType ConcreteType::floatOfSize(uint64_t Bytes) {
  switch (Bytes) {
  case 2:
    return Half;
  case 4:
    return Float;
  case 8:
    return Double;
  case 16:
    return FP128;
  default:
    return Unknown;
  }
}

Type *ConcreteType::getIRType(LLVMContext &Ctx) const {
  switch (K) {
  case Half:
    return Type::getHalfTy(Ctx);
  case BFloat:
    return Type::getBFloatTy(Ctx);
  case Float:
    return Type::getFloatTy(Ctx);
  case Double:
    return Type::getDoubleTy(Ctx);
  case X86_FP80:
    return Type::getX86_FP80Ty(Ctx);
  case FP128:
    return Type::getFP128Ty(Ctx);
  case PPC_FP128:
    return Type::getPPC_FP128Ty(Ctx);
  default:
    return nullptr;
  }
}

uint64_t ConcreteType::getSizeInBytes(const DataLayout &DL) const {
  switch (K) {
  case Half:
  case BFloat:
    return 2;
  case Float:
    return 4;
  case Double:
    return 8;
  case X86_FP80:
    return x86FP80AllocSize(DL);
  case FP128:
  case PPC_FP128:
    return 16;
  case Pointer:
    return DL.getPointerSize();
  default:
    return 1;
  }
}

StringRef ConcreteType::getName() const {
  switch (K) {
  case Unknown:
    return "Unknown";
  case Integer:
    return "Integer";
  case Pointer:
    return "Pointer";
  case Half:
    return "Half";
  case BFloat:
    return "BFloat";
  case Float:
    return "Float";
  case Double:
    return "Double";
  case X86_FP80:
    return "X86_FP80";
  case FP128:
    return "FP128";
  case PPC_FP128:
    return "PPC_FP128";
  case Anything:
    return "Anything";
  }
  llvm_unreachable("covered switch");
}

raw_ostream &operator<<(raw_ostream &OS, ConcreteType T) {
  return OS << T.getName();
}

//===----------------------------------------------------------------------===//
// TypeTree::Offset
//===----------------------------------------------------------------------===//

TypeTree::Offset TypeTree::Offset::pattern(int64_t Stride, int64_t Base) {
  assert(Stride > 0 && "a pattern needs a positive period");
  return Offset(floorMod(Base, Stride), Stride);
}

bool TypeTree::Offset::contains(int64_t Off) const {
  if (Off < 0)
    return false;
  if (isExact())
    return Off == Base;
  return floorMod(Off - Base, Stride) == 0;
}

bool TypeTree::Offset::contains(Offset O) const {
  if (isExact())
    return O == *this;
  if (O.isExact())
    return contains(O.Base);
  return O.Stride % Stride == 0 && floorMod(O.Base - Base, Stride) == 0;
}

void TypeTree::Offset::print(raw_ostream &OS) const {
  if (isExact())
    OS << Base;
  else if (isEvery())
    OS << -1;
  else if (Base == 0)
    OS << Stride << 'n';
  else
    OS << Stride << "n+" << Base;
}

bool TypeTree::Offset::operator<(Offset O) const {
  if (isEvery() != O.isEvery())
    return isEvery();
  if (Base != O.Base)
    return Base < O.Base;
  return Stride < O.Stride;
}

//===----------------------------------------------------------------------===//
// Construction and insertion
//===----------------------------------------------------------------------===//

TypeTree TypeTree::ofRoot(ConcreteType T) {
  TypeTree R;
  R.insert(ArrayRef<Offset>(), T);
  return R;
}

bool TypeTree::usesRoot(const Type *T) {
  return T->isPointerTy() || T->isFloatingPointTy();
}

TypeTree TypeTree::fromIRType(Type *T, const DataLayout &DL) {
  if (usesRoot(T))
    return ofRoot(ConcreteType::fromIRType(T));
  return fromMemoryType(T, DL);
}

TypeTree TypeTree::fromMemoryType(Type *T, const DataLayout &DL) {
  TypeTree R;
  addMemoryType(R, T, 0, DL, /*Outermost=*/true);
  return R;
}

namespace {

/// Is \p T the type clang gives a C struct or C++ class object?
bool isSourceStruct(const StructType *ST) {
  return ST->hasName() && !ST->isOpaque() &&
         (ST->getName().starts_with("struct.") ||
          ST->getName().starts_with("class."));
}

/// Marks, at offset \p Off, the integer fields and padding of \p T.
void addNonFloatBytes(TypeTree &Tree, Type *T, int64_t Off,
                      const DataLayout &DL) {
  if (T->isIntegerTy()) {
    Tree.insertIntegerBytes(Off, DL.getTypeStoreSize(T));
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    int64_t Stride = DL.getTypeAllocSize(AT->getElementType()).getFixedValue();
    uint64_t N = std::min<uint64_t>(AT->getNumElements(),
                                    TypeTree::MaxExpandedPeriods);
    for (uint64_t I = 0; I != N; ++I)
      addNonFloatBytes(Tree, AT->getElementType(), Off + I * Stride, DL);
    return;
  }
  auto *ST = dyn_cast<StructType>(T);
  if (!ST || !isSourceStruct(ST))
    return;
  const StructLayout *SL = DL.getStructLayout(ST);
  int64_t End = 0; // Where the previous field ended: padding after it.
  for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I) {
    int64_t FieldOff = SL->getElementOffset(I).getFixedValue();
    Tree.insertIntegerBytes(Off + End, FieldOff - End);
    addNonFloatBytes(Tree, ST->getElementType(I), Off + FieldOff, DL);
    End = FieldOff + DL.getTypeStoreSize(ST->getElementType(I));
  }
  Tree.insertIntegerBytes(Off + End,
                          int64_t(SL->getSizeInBytes().getFixedValue()) - End);
}

} // namespace

TypeTree TypeTree::nonFloatBytesOfObject(Type *T, const DataLayout &DL) {
  TypeTree R;
  Type *Elt = T;
  while (auto *AT = dyn_cast<ArrayType>(Elt))
    Elt = AT->getElementType();
  if (auto *ST = dyn_cast<StructType>(Elt); ST && isSourceStruct(ST))
    addNonFloatBytes(R, T, 0, DL);
  return R;
}

bool TypeTree::insert(ArrayRef<int64_t> Key, ConcreteType T) {
  Path P;
  for (int64_t O : Key)
    P.push_back(O < 0 ? Offset::every() : Offset::exact(O));
  return insert(P, T);
}

bool TypeTree::insertIntegerBytes(int64_t Off, int64_t Size) {
  bool Changed = false;
  for (int64_t I = 0; I < Size; ++I)
    Changed |= insert({Offset::exact(Off + I)}, ConcreteType::Integer);
  return Changed;
}

bool TypeTree::insert(ArrayRef<Offset> Key, ConcreteType T) {
  if (!T.isKnown() || Key.size() > MaxDepth)
    return false;
  if (HasPatterns || !isExactKey(Key))
    return insertPattern(Key, T);

  // Exact keys only: no entry can cover another, so this is a plain sorted
  // map.
  auto It = partition_point(
      Entries, [&](const Entry &E) { return keyLess(E.Key, Key); });
  if (It != Entries.end() && ArrayRef<Offset>(It->Key) == Key)
    return It->Type.joinWith(T);
  if (Entries.size() >= MaxEntries)
    return false;
  Entries.insert(It, Entry{Path(Key.begin(), Key.end()), T});
  return true;
}

bool TypeTree::insertPattern(ArrayRef<Offset> Key, ConcreteType T) {
  // What the tree already says at every path of Key.
  ConcreteType Joined = T;
  for (const Entry &E : Entries) {
    if (!keyContains(E.Key, Key))
      continue;
    if (E.Type.covers(T))
      return false;
    Joined.joinWith(E.Type);
  }

  // Entries under the new key are implied by it unless they are higher.
  erase_if(Entries, [&](const Entry &E) {
    return keyContains(Key, E.Key) && Joined.covers(E.Type);
  });
  // The others become Anything, which implies whatever they contain.
  SmallVector<Path, 2> Raised;
  for (Entry &E : Entries)
    if (keyContains(Key, E.Key) && E.Type.joinWith(Joined))
      Raised.push_back(E.Key);
  for (const Path &R : Raised)
    erase_if(Entries, [&](const Entry &E) {
      return ArrayRef<Offset>(E.Key) != ArrayRef<Offset>(R) &&
             keyContains(R, E.Key);
    });

  if (Entries.size() >= MaxEntries)
    return false;
  auto It = partition_point(
      Entries, [&](const Entry &E) { return keyLess(E.Key, Key); });
  Entries.insert(It, Entry{Path(Key.begin(), Key.end()), Joined});
  if (!isExactKey(Key)) {
    HasPatterns = true;
    collapsePatterns(Key, Joined);
  }
  return true;
}

/// When every residue of a small period holds the same type, the pattern is
/// "every offset": an array of ints is [-1]:Integer, not four entries. (A
/// residue that is Anything keeps the pattern: [4n]:Anything with
/// [4n+1..3]:Integer reads better than [-1]:Integer with [4n]:Anything.)
void TypeTree::collapsePatterns(ArrayRef<Offset> Key, ConcreteType T) {
  Offset Last = Key.back();
  int64_t Stride = Last.getStride();
  if (Last.isExact() || Last.isEvery() || Stride > 64)
    return;
  Path Probe(Key.begin(), Key.end());
  for (int64_t R = 0; R != Stride; ++R) {
    Probe.back() = Offset::pattern(Stride, R);
    bool Covered = any_of(Entries, [&](const Entry &E) {
      return E.Type == T && keyContains(E.Key, Probe);
    });
    if (!Covered)
      return;
  }
  Probe.back() = Offset::every();
  insertPattern(Probe, T);
}

bool TypeTree::merge(const TypeTree &Other) {
  if (&Other == this)
    return false;
  bool Changed = false;
  for (const Entry &E : Other.Entries)
    Changed |= insert(E.Key, E.Type);
  return Changed;
}

//===----------------------------------------------------------------------===//
// Queries and derived trees
//===----------------------------------------------------------------------===//

ConcreteType TypeTree::lookup(ArrayRef<int64_t> Key) const {
  ConcreteType Result;
  for (const Entry &E : Entries)
    if (keyMatches(E.Key, Key))
      Result.joinWith(E.Type);
  return Result;
}

TypeTree TypeTree::shift(int64_t Off, int64_t Size) const {
  TypeTree R;
  for (const Entry &E : Entries) {
    if (E.Key.empty()) {
      R.insert(E.Key, E.Type);
      continue;
    }
    Path Key = E.Key;
    Offset First = E.Key.front();
    if (First.isExact()) {
      int64_t New = First.getBase() - Off;
      if (New < 0 || (Size != Unbounded && New >= Size))
        continue;
      Key.front() = Offset::exact(New);
      R.insert(Key, E.Type);
      continue;
    }
    int64_t Stride = First.getStride();
    int64_t Base = floorMod(First.getBase() - Off, Stride);
    if (Size == Unbounded || Size > Stride * MaxExpandedPeriods) {
      Key.front() = Offset::pattern(Stride, Base);
      R.insert(Key, E.Type);
      continue;
    }
    for (int64_t New = Base; New < Size; New += Stride) {
      Key.front() = Offset::exact(New);
      R.insert(Key, E.Type);
    }
  }
  return R;
}

TypeTree TypeTree::only(int64_t Off) const {
  assert(Off >= 0 && "memory before the pointer is not described");
  TypeTree R;
  R.HasPatterns = HasPatterns;
  for (const Entry &E : Entries) {
    if (E.Key.size() + 1 > MaxDepth)
      continue;
    Entry New{Path{Offset::exact(Off)}, E.Type};
    New.Key.append(E.Key.begin(), E.Key.end());
    R.Entries.push_back(std::move(New));
  }
  return R;
}

TypeTree TypeTree::dereference(int64_t Off) const {
  TypeTree R;
  for (const Entry &E : Entries)
    if (!E.Key.empty() && E.Key.front().contains(Off))
      R.insert(ArrayRef<Offset>(E.Key).drop_front(), E.Type);
  return R;
}

TypeTree TypeTree::repeat(int64_t Stride) const {
  assert(Stride > 0 && "repeat needs a positive stride");
  TypeTree R;
  for (const Entry &E : Entries) {
    if (E.Key.empty()) {
      R.insert(E.Key, E.Type);
      continue;
    }
    Path Key = E.Key;
    Offset First = Key.front();
    int64_t Period =
        First.isExact() ? Stride : std::gcd(Stride, First.getStride());
    Key.front() = Offset::pattern(Period, First.getBase());
    R.insert(Key, E.Type);
  }
  return R;
}

TypeTree TypeTree::withoutRoot() const {
  TypeTree R = *this;
  if (!R.Entries.empty() && R.Entries.front().Key.empty())
    R.Entries.erase(R.Entries.begin());
  return R;
}

ConcreteType TypeTree::typeAtByte(ArrayRef<int64_t> Prefix, int64_t Byte,
                                  const DataLayout &DL) const {
  ConcreteType Result;
  if (Byte < 0)
    return Result;
  for (const Entry &E : Entries) {
    if (E.Key.size() != Prefix.size() + 1 ||
        !keyMatches(ArrayRef<Offset>(E.Key).drop_back(), Prefix))
      continue;
    Offset Last = E.Key.back();
    int64_t Extent = E.Type.getSizeInBytes(DL);
    // The closest start at or before Byte is the one that can reach it.
    int64_t Start = Last.isExact()
                        ? Last.getBase()
                        : Byte - floorMod(Byte - Last.getBase(),
                                          Last.getStride());
    if (Start >= 0 && Start <= Byte && Byte < Start + Extent)
      Result.joinWith(E.Type);
  }
  return Result;
}

void TypeTree::byteSegments(ArrayRef<int64_t> Prefix, int64_t Off,
                            int64_t Size, const DataLayout &DL,
                            SmallVectorImpl<TypeSegment> &Out) const {
  assert(Off >= 0 && Size >= 0 && "byte ranges start in the memory");
  Size = std::min(Size, MaxQueryBytes);
  SmallVector<ConcreteType, 64> Bytes(Size);
  auto Cover = [&](int64_t Start, int64_t Extent, ConcreteType T) {
    int64_t Lo = std::max(Start, Off), Hi = std::min(Start + Extent, Off + Size);
    for (int64_t B = Lo; B < Hi; ++B)
      Bytes[B - Off].joinWith(T);
  };
  for (const Entry &E : Entries) {
    if (E.Key.size() != Prefix.size() + 1 ||
        !keyMatches(ArrayRef<Offset>(E.Key).drop_back(), Prefix))
      continue;
    Offset Last = E.Key.back();
    int64_t Extent = E.Type.getSizeInBytes(DL);
    if (Last.isExact()) {
      Cover(Last.getBase(), Extent, E.Type);
      continue;
    }
    // The first start whose extent reaches Off, then every period.
    int64_t Stride = Last.getStride();
    int64_t From = std::max<int64_t>(0, Off - Extent + 1);
    int64_t Start = From + floorMod(Last.getBase() - From, Stride);
    // Overlapping copies of one pattern agree with each other: joining the
    // same type again changes nothing, so a [-1]:Double covers every byte
    // once per start without becoming Anything.
    for (; Start < Off + Size; Start += Stride)
      Cover(Start, Extent, E.Type);
  }
  for (int64_t B = 0; B < Size; ++B) {
    if (!Out.empty() && Out.back().Type == Bytes[B] &&
        Out.back().Offset + Out.back().Size == Off + B) {
      ++Out.back().Size;
      continue;
    }
    Out.push_back(TypeSegment{Off + B, 1, Bytes[B]});
  }
}

void TypeTree::extent(const DataLayout &DL, int64_t &ExactEnd,
                      int64_t &Period) const {
  ExactEnd = 0;
  Period = 0;
  for (const Entry &E : Entries) {
    if (E.Key.size() != 1)
      continue;
    Offset First = E.Key.front();
    if (First.isExact()) {
      ExactEnd = std::max<int64_t>(
          ExactEnd, First.getBase() + E.Type.getSizeInBytes(DL));
      continue;
    }
    Period = Period == 0 ? First.getStride()
                         : std::lcm(Period, First.getStride());
    Period = std::min(Period, MaxPeriod);
  }
}

//===----------------------------------------------------------------------===//
// Printing and comparison
//===----------------------------------------------------------------------===//

namespace {

/// Can entry \p Next continue a printed byte range that ends with \p Prev?
/// Only for single-byte types: two doubles one byte apart are no range.
bool continuesRun(const TypeTree::Entry &Prev, const TypeTree::Entry &Next) {
  if (Prev.Type != Next.Type || Prev.Key.empty() ||
      Prev.Key.size() != Next.Key.size() ||
      (Prev.Type != ConcreteType::Integer &&
       Prev.Type != ConcreteType::Anything))
    return false;
  if (!equal(ArrayRef(Prev.Key).drop_back(), ArrayRef(Next.Key).drop_back()))
    return false;
  TypeTree::Offset A = Prev.Key.back(), B = Next.Key.back();
  return !A.isEvery() && A.getStride() == B.getStride() &&
         B.getBase() == A.getBase() + 1;
}

void printKeyPrefix(raw_ostream &OS, ArrayRef<TypeTree::Offset> Key) {
  for (TypeTree::Offset O : Key) {
    O.print(OS);
    OS << ", ";
  }
}

} // namespace

void TypeTree::print(raw_ostream &OS) const {
  OS << '{';
  for (size_t I = 0, E = Entries.size(); I != E;) {
    size_t RunEnd = I;
    while (RunEnd + 1 != E && continuesRun(Entries[RunEnd], Entries[RunEnd + 1]))
      ++RunEnd;
    if (I != 0)
      OS << ", ";
    const Entry &First = Entries[I];
    OS << '[';
    if (!First.Key.empty()) {
      printKeyPrefix(OS, ArrayRef(First.Key).drop_back());
      Offset Last = First.Key.back();
      if (RunEnd == I) {
        Last.print(OS);
      } else {
        if (!Last.isExact())
          OS << Last.getStride() << "n+";
        OS << Last.getBase() << ".." << Entries[RunEnd].Key.back().getBase();
      }
    }
    OS << "]:" << First.Type;
    I = RunEnd + 1;
  }
  OS << '}';
}

std::string TypeTree::str() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

bool TypeTree::operator==(const TypeTree &O) const {
  if (Entries.size() != O.Entries.size())
    return false;
  for (size_t I = 0, E = Entries.size(); I != E; ++I)
    if (Entries[I].Type != O.Entries[I].Type ||
        ArrayRef<Offset>(Entries[I].Key) != ArrayRef<Offset>(O.Entries[I].Key))
      return false;
  return true;
}

raw_ostream &operator<<(raw_ostream &OS, const TypeTree &T) {
  T.print(OS);
  return OS;
}

} // namespace adjoint
