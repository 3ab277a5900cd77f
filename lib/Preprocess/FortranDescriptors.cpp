//===- FortranDescriptors.cpp - What flang's descriptors hold -------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Some functions of flang's runtime serve every type (Assign, SumDim,
// Transpose, ALLOCATE, array constructors) and read the type from a
// descriptor. Their models (models/FortranRuntime.cpp) only do REAL arrays
// (and COMPLEX ones, those that only move data), of limited rank for some.
// A model is used where the descriptors are known to fit; elsewhere the
// runtime is called as the program does, and AD reports the call if
// derivatives reach it. Models thus never need to fall back to the
// runtime, which would let the descriptors escape and keep them in memory.
//
// Known means: the descriptor is a stack slot of the function that flang
// filled in (a store of the field, of a constant that covers it such as
// the <4 x i8> the optimizer makes of rank, type and attribute, of a whole
// descriptor value whose field is a constant or copied from another such
// descriptor (-O0), or a memset), and otherwise only read or passed to
// functions that have models, which keep a REAL type REAL.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include <optional>

using namespace llvm;

namespace adjoint {

namespace {

// The layout of a descriptor (ISO_Fortran_binding.h's CFI_cdesc_t).
constexpr uint64_t RankOffset = 20, TypeOffset = 21;
// CFI_type_float, _double, _float_Complex, _double_Complex.
constexpr uint8_t TypeFloat = 27, TypeDouble = 28, TypeComplexFloat = 34,
                  TypeComplexDouble = 35;

/// How many descriptors copied from descriptors are followed.
constexpr unsigned MaxCopyDepth = 4;

/// Which argument of a runtime function of every type decides the type its
/// model handles, and what else the model needs of the call. Runtime
/// functions whose names say the type (SumReal8, MatmulReal8Real8) are not
/// listed: their models always apply.
struct TypedModel {
  StringLiteral Name;
  unsigned TypeArg;
  /// COMPLEX data too (the models that only move data).
  bool Complex;
  /// TypeArg is an array constructor's state: the `to` descriptor of the
  /// Init that set it up decides.
  bool ThroughConstructor = false;
  /// A descriptor whose rank must be at most MaxRank, if any.
  int RankArg = -1;
  unsigned MaxRank = 0;
  /// Optional arguments the model does not handle: they must be absent.
  int AbsentArgs[2] = {-1, -1};
};

constexpr TypedModel TypedModels[] = {
    {"_FortranAAssign", 1, true},
    {"_FortranATranspose", 1, true},
    {"_FortranASpread", 1, true, false, 1, 2},
    {"_FortranAReshape", 1, true, false, 0, 3, {3, 4}},
    {"_FortranACshiftVector", 1, true},
    {"_FortranASumDim", 1, false, false, 1, 3},
    {"_FortranAProductDim", 1, false, false, 1, 3},
    {"_FortranAMaxvalDim", 1, false, false, 1, 3},
    {"_FortranAMinvalDim", 1, false, false, 1, 3},
    {"_FortranAAllocatableAllocate", 0, true},
    {"_FortranAAllocatableDeallocate", 0, true},
    {"_FortranAInitArrayConstructorVector", 1, true},
    {"_FortranAPushArrayConstructorValue", 0, true, true},
    {"_FortranAPushArrayConstructorSimpleScalar", 0, true, true},
};

const TypedModel *findTypedModel(StringRef Name) {
  for (const TypedModel &M : TypedModels)
    if (M.Name == Name)
      return &M;
  return nullptr;
}

std::optional<uint8_t> storedByte(const Value *Desc, uint64_t Offset,
                                  const DataLayout &DL, unsigned Depth);

/// Byte \p Index of the value \p V stored into a descriptor.
std::optional<uint8_t> byteOfStoredValue(Value *V, uint64_t Index,
                                         const DataLayout &DL, unsigned Depth) {
  Type *I8 = Type::getInt8Ty(V->getContext());
  if (auto *C = dyn_cast<Constant>(V)) {
    if (auto *Byte = dyn_cast_or_null<ConstantInt>(
            ConstantFoldLoadFromConst(C, I8, APInt(64, Index), DL)))
      return Byte->getZExtValue();
    return std::nullopt;
  }
  // A whole descriptor copied from another one.
  if (auto *Load = dyn_cast<LoadInst>(V); Load && Load->isSimple())
    return storedByte(Load->getPointerOperand(), Index, DL, Depth + 1);
  // A whole descriptor built field by field (-O0): the field that holds
  // the byte, if it is one byte wide.
  auto *ST = dyn_cast<StructType>(V->getType());
  if (!ST)
    return std::nullopt;
  const StructLayout *Layout = DL.getStructLayout(ST);
  unsigned Field = Layout->getElementContainingOffset(Index);
  if (Layout->getElementOffset(Field) != Index ||
      !ST->getElementType(Field)->isIntegerTy(8))
    return std::nullopt;
  if (auto *Byte = dyn_cast_or_null<ConstantInt>(FindInsertedValue(V, Field)))
    return Byte->getZExtValue();
  return std::nullopt;
}

/// Is \p Call one that may be given a descriptor without changing its rank
/// or type: a function with a model (its model keeps REAL types REAL), or
/// one that only reads (the output of PRINT)?
bool keepsDescriptor(const CallBase &Call) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    return II->isLifetimeStartOrEnd();
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  return isLibraryModel(*Callee) || hasLibraryModel(Name) ||
         Name.starts_with("_FortranAioOutput");
}

/// The value that every write gives the byte at \p Offset of the
/// descriptor at \p Desc, if they all write the same constant and nothing
/// else may change it.
std::optional<uint8_t> storedByte(const Value *Desc, uint64_t Offset,
                                  const DataLayout &DL, unsigned Depth) {
  if (Depth > MaxCopyDepth)
    return std::nullopt;
  int64_t DescOffset = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(Desc, DescOffset, DL);
  if (!isa<AllocaInst>(Base))
    return std::nullopt;
  uint64_t Target = DescOffset + Offset;
  std::optional<uint8_t> Byte;
  SmallVector<std::pair<const Value *, uint64_t>, 16> Worklist = {{Base, 0}};
  while (!Worklist.empty()) {
    auto [Ptr, At] = Worklist.pop_back_val();
    for (const User *U : Ptr->users()) {
      if (const auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt Delta(64, 0);
        if (!GEP->accumulateConstantOffset(DL, Delta))
          return std::nullopt;
        Worklist.push_back({GEP, At + Delta.getSExtValue()});
        continue;
      }
      if (isa<LoadInst>(U))
        continue;
      // The optimizer zeroes neighbouring fields with a memset.
      if (const auto *Set = dyn_cast<MemSetInst>(U)) {
        const auto *Length = dyn_cast<ConstantInt>(Set->getLength());
        const auto *Value = dyn_cast<ConstantInt>(Set->getValue());
        if (Set->getDest() != Ptr || !Length || !Value)
          return std::nullopt;
        if (Target < At || Target >= At + Length->getZExtValue())
          continue;
        if (Byte && *Byte != Value->getZExtValue())
          return std::nullopt;
        Byte = Value->getZExtValue();
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(U)) {
        if (!keepsDescriptor(*Call))
          return std::nullopt;
        continue;
      }
      const auto *Store = dyn_cast<StoreInst>(U);
      if (!Store || Store->getValueOperand() == Ptr || !Store->isSimple())
        return std::nullopt; // The descriptor's address escapes.
      Value *Stored = const_cast<Value *>(Store->getValueOperand());
      uint64_t Size = DL.getTypeStoreSize(Stored->getType());
      if (Target < At || Target >= At + Size)
        continue;
      std::optional<uint8_t> Written =
          byteOfStoredValue(Stored, Target - At, DL, Depth);
      if (!Written || (Byte && *Byte != *Written))
        return std::nullopt;
      Byte = Written;
    }
  }
  return Byte;
}

/// Is \p Desc known to describe REAL(4) or REAL(8) data (or, with
/// \p Complex, COMPLEX(4) or COMPLEX(8) data)?
bool describesReal(const Value *Desc, bool Complex, const DataLayout &DL) {
  std::optional<uint8_t> Type = storedByte(Desc, TypeOffset, DL, 0);
  if (!Type)
    return false;
  if (*Type == TypeFloat || *Type == TypeDouble)
    return true;
  return Complex && (*Type == TypeComplexFloat || *Type == TypeComplexDouble);
}

/// Is the rank of \p Desc known to be at most \p MaxRank?
bool rankAtMost(const Value *Desc, unsigned MaxRank, const DataLayout &DL) {
  std::optional<uint8_t> Rank = storedByte(Desc, RankOffset, DL, 0);
  return Rank && *Rank <= MaxRank;
}

/// The `to` descriptor of the Init that set up the array constructor state
/// \p Vector.
const Value *constructorTarget(const Value *Vector) {
  const Value *Slot = getUnderlyingObject(Vector);
  for (const User *U : Slot->users())
    if (const auto *Call = dyn_cast<CallBase>(U))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && Call->arg_size() > 1 &&
          (Callee->getName() == "_FortranAInitArrayConstructorVector" ||
           Callee->getName() ==
               "__adjoint_model__FortranAInitArrayConstructorVector"))
        return Call->getArgOperand(1);
  return nullptr;
}

} // namespace

bool modelApplies(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  const TypedModel *M = Callee ? findTypedModel(Callee->getName()) : nullptr;
  if (!M)
    return true;
  auto Arg = [&](int I) -> const Value * {
    return I >= 0 && unsigned(I) < Call.arg_size() ? Call.getArgOperand(I)
                                                   : nullptr;
  };
  for (int Absent : M->AbsentArgs)
    if (Absent >= 0 && !isa_and_present<ConstantPointerNull>(Arg(Absent)))
      return false;
  const DataLayout &DL = Call.getDataLayout();
  if (M->RankArg >= 0 &&
      !(Arg(M->RankArg) && rankAtMost(Arg(M->RankArg), M->MaxRank, DL)))
    return false;
  const Value *Desc = Arg(M->TypeArg);
  if (Desc && M->ThroughConstructor)
    Desc = constructorTarget(Desc);
  return Desc && describesReal(Desc, M->Complex, DL);
}

} // namespace adjoint
