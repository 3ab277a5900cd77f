//===- FunctionSolver.cpp - Type trees of one function ----------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Conventions of the transfer functions below:
//
//  - get(V) is V's tree; update(V, T) joins T into it and revisits what
//    depends on V if it grew. Every transfer function is a set of updates in
//    both directions, so visiting an instruction again is harmless.
//  - Memory is flow-insensitive: a location has one type for its whole life,
//    so a store and a load through the same pointer agree, whatever their
//    order.
//  - Pointers and floating-point scalars are described at [] (themselves),
//    everything else by its bytes (TypeTree::usesRoot). toBytes/fromBytes
//    convert, which is all a bitcast, ptrtoint or inttoptr needs.
//
//===----------------------------------------------------------------------===//

#include "FunctionSolver.h"
#include "KnownFunctions.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

#define DEBUG_TYPE "adjoint-types"

using namespace llvm;

namespace adjoint {

namespace {

/// The worklist may run this many steps per instruction (plus a constant)
/// before the solver gives up; real functions need a handful.
constexpr unsigned StepsPerInstruction = 64;
constexpr unsigned MinSteps = 4096;

/// affineForm looks this deep into the expression of an index.
constexpr unsigned AffineDepth = 6;

/// Beyond this, constants and periods of indices are not worth tracking.
constexpr int64_t MaxAffine = int64_t(1) << 40;

using Affine = std::pair<int64_t, int64_t>;
constexpr Affine UnknownAffine{0, 1};

int64_t storeSize(Type *T, const DataLayout &DL) {
  TypeSize S = DL.getTypeStoreSize(T);
  return S.isScalable() ? 0 : int64_t(S.getFixedValue());
}

Affine checked(int64_t C, int64_t S) {
  if (C > MaxAffine || C < -MaxAffine || S > MaxAffine)
    return UnknownAffine;
  return {C, S};
}

Affine scale(Affine A, int64_t K) {
  int64_t C, S;
  if (MulOverflow(A.first, K, C) || MulOverflow(A.second, K < 0 ? -K : K, S))
    return UnknownAffine;
  return checked(C, S);
}

/// A constant integer operand that fits in 64 bits.
std::optional<int64_t> smallConstant(const Value *V) {
  const auto *CI = dyn_cast<ConstantInt>(V);
  if (!CI || CI->getBitWidth() > 64)
    return std::nullopt;
  return CI->getSExtValue();
}

Affine affineImpl(const Value *V, unsigned Depth);

/// A phi of induction form: start values, and increments `phi + X`.
Affine affinePhi(const PHINode &PN, unsigned Depth) {
  std::optional<int64_t> Start;
  int64_t Stride = 0;
  for (const Value *In : PN.incoming_values()) {
    if (In == &PN)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(In)) {
      bool IsAdd = BO->getOpcode() == Instruction::Add;
      bool IsSub = BO->getOpcode() == Instruction::Sub;
      const Value *Step = nullptr;
      if ((IsAdd || IsSub) && BO->getOperand(0) == &PN)
        Step = BO->getOperand(1);
      else if (IsAdd && BO->getOperand(1) == &PN)
        Step = BO->getOperand(0);
      if (Step) {
        Affine S = affineImpl(Step, Depth - 1);
        Stride = std::gcd(Stride, std::gcd(S.first, S.second));
        continue;
      }
    }
    Affine A = affineImpl(In, Depth - 1);
    if (!Start)
      Start = A.first;
    Stride = std::gcd(Stride, std::gcd(A.second, A.first - *Start));
  }
  if (!Start)
    return UnknownAffine;
  return checked(*Start, Stride);
}

Affine affineImpl(const Value *V, unsigned Depth) {
  if (isa<ConstantInt>(V)) {
    std::optional<int64_t> K = smallConstant(V);
    return K ? checked(*K, 0) : UnknownAffine;
  }
  if (Depth == 0)
    return UnknownAffine;
  if (const auto *PN = dyn_cast<PHINode>(V))
    return affinePhi(*PN, Depth);
  const auto *Op = dyn_cast<Operator>(V);
  if (!Op)
    return UnknownAffine;
  switch (Op->getOpcode()) {
  case Instruction::SExt:
  case Instruction::ZExt:
    return affineImpl(Op->getOperand(0), Depth - 1);
  case Instruction::Or: {
    const auto *Or = dyn_cast<PossiblyDisjointInst>(Op);
    if (!Or || !Or->isDisjoint())
      return UnknownAffine;
    [[fallthrough]];
  }
  case Instruction::Add:
  case Instruction::Sub: {
    Affine A = affineImpl(Op->getOperand(0), Depth - 1);
    Affine B = affineImpl(Op->getOperand(1), Depth - 1);
    int64_t C = Op->getOpcode() == Instruction::Sub ? A.first - B.first
                                                    : A.first + B.first;
    return checked(C, std::gcd(A.second, B.second));
  }
  case Instruction::Mul:
    if (std::optional<int64_t> K = smallConstant(Op->getOperand(1)))
      return scale(affineImpl(Op->getOperand(0), Depth - 1), *K);
    if (std::optional<int64_t> K = smallConstant(Op->getOperand(0)))
      return scale(affineImpl(Op->getOperand(1), Depth - 1), *K);
    return UnknownAffine;
  case Instruction::Shl:
    if (std::optional<int64_t> K = smallConstant(Op->getOperand(1)))
      if (*K >= 0 && *K < 40)
        return scale(affineImpl(Op->getOperand(0), Depth - 1),
                     int64_t(1) << *K);
    return UnknownAffine;
  default:
    return UnknownAffine;
  }
}

/// The constant part and period of a GEP's byte offset. False for vector
/// GEPs and scalable types, whose offsets this analysis does not follow.
/// Sets \p Elements (and \p Const to element 0's offset) when the only
/// run-time index of an inbounds GEP selects an element of a fixed-size
/// array, which it cannot leave: `s.c[i]` is one of c's elements, not any
/// multiple of the element size.
bool gepOffset(const GEPOperator &GEP, const DataLayout &DL, int64_t &Const,
               int64_t &Stride, int64_t *ElementsOut = nullptr) {
  Const = 0;
  Stride = 0;
  int64_t Elements = 0;
  if (GEP.getType()->isVectorTy())
    return false;
  unsigned VariableIndices = 0;
  int64_t VariableConst = 0;
  // The aggregate the current index selects in; none for the first index,
  // which steps over whole objects.
  Type *Aggregate = nullptr;
  for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
       GTI != E; Aggregate = GTI.getIndexedType(), ++GTI) {
    const Value *Idx = GTI.getOperand();
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
      Const += DL.getStructLayout(ST)->getElementOffset(Field).getFixedValue();
      continue;
    }
    TypeSize Size = GTI.getSequentialElementStride(DL);
    if (Size.isScalable() || Idx->getType()->isVectorTy())
      return false;
    Affine A = scale(affineForm(Idx), int64_t(Size.getFixedValue()));
    Const += A.first;
    Stride = std::gcd(Stride, A.second);
    if (A.second != 0) {
      ++VariableIndices;
      VariableConst = A.first;
      auto *AT = dyn_cast_or_null<ArrayType>(Aggregate);
      Elements = AT && GEP.isInBounds() &&
                         A.second == int64_t(Size.getFixedValue())
                     ? int64_t(AT->getNumElements())
                     : 0;
    }
  }
  if (VariableIndices != 1 || Elements > TypeTree::MaxExpandedPeriods)
    Elements = 0;
  if (Elements)
    Const -= VariableConst;
  if (ElementsOut)
    *ElementsOut = Elements;
  return true;
}

/// The byte offset and type of the member of \p AggTy at \p Indices.
bool memberOffset(Type *AggTy, ArrayRef<unsigned> Indices,
                  const DataLayout &DL, int64_t &Off, Type *&MemberTy) {
  Off = 0;
  MemberTy = AggTy;
  for (unsigned Idx : Indices) {
    if (auto *ST = dyn_cast<StructType>(MemberTy)) {
      Off += DL.getStructLayout(ST)->getElementOffset(Idx).getFixedValue();
      MemberTy = ST->getElementType(Idx);
    } else if (auto *AT = dyn_cast<ArrayType>(MemberTy)) {
      MemberTy = AT->getElementType();
      Off += Idx * DL.getTypeAllocSize(MemberTy).getFixedValue();
    } else {
      return false;
    }
  }
  return true;
}

/// Do all of \p T's bytes [0, Size) hold Integer?
bool isIntegerBytes(const TypeTree &T, int64_t Size) {
  for (int64_t B = 0; B < Size; ++B)
    if (T.lookup({B}) != ConcreteType::Integer)
      return false;
  return Size > 0;
}

/// The instructions through which a pointer induction variable flows back
/// to itself.
bool isAddressFlow(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::PHI:
  case Instruction::Select:
  case Instruction::GetElementPtr:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Or:
  case Instruction::Freeze:
    return true;
  default:
    return false;
  }
}

/// Integer intrinsics: their operands and results are integers.
bool isIntegerIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::abs:
  case Intrinsic::ctpop:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::sadd_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::ssub_sat:
  case Intrinsic::usub_sat:
    return true;
  default:
    return false;
  }
}

} // namespace

std::pair<int64_t, int64_t> affineForm(const Value *V) {
  return affineImpl(V, AffineDepth);
}

//===----------------------------------------------------------------------===//
// State and worklist
//===----------------------------------------------------------------------===//

FunctionSolver::FunctionSolver(const Function &F, SummarizeFn Summarize)
    : F(F), DL(F.getParent()->getDataLayout()), Summarize(Summarize) {
  for (const Argument &A : F.args())
    State[&A] = TypeTree::fromIRType(A.getType(), DL);
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  for (const BasicBlock *BB : RPOT)
    for (const Instruction &I : *BB) {
      Number[&I] = Order.size();
      Order.push_back(&I);
    }
  // Unreachable blocks, last.
  for (const Instruction &I : instructions(F))
    if (Number.try_emplace(&I, Order.size()).second)
      Order.push_back(&I);
  ThisSweep.resize(Order.size());
  NextSweep.resize(Order.size());

  for (const Instruction &I : instructions(F)) {
    if (!I.getType()->isVoidTy())
      State[&I] = TypeTree::fromIRType(I.getType(), DL);
    if (const auto *AI = dyn_cast<AllocaInst>(&I)) {
      TypeTree Mem = TypeTree::fromMemoryType(AI->getAllocatedType(), DL);
      Mem.merge(TypeTree::nonFloatBytesOfObject(AI->getAllocatedType(), DL));
      if (AI->isArrayAllocation())
        Mem = Mem.repeat(std::max<int64_t>(
            1, DL.getTypeAllocSize(AI->getAllocatedType()).getFixedValue()));
      State[&I].merge(Mem);
    }
    if (isa<ReturnInst>(&I))
      Returns.push_back(&I);
    // Globals reached directly or through constant expressions.
    SmallVector<const Constant *, 4> Pending;
    for (const Value *Op : I.operands())
      if (const auto *C = dyn_cast<Constant>(Op))
        Pending.push_back(C);
    while (!Pending.empty()) {
      const Constant *C = Pending.pop_back_val();
      if (isa<GlobalVariable>(C)) {
        auto &Users = GlobalUsers[C];
        if (Users.empty() || Users.back() != &I)
          Users.push_back(&I);
      } else if (isa<ConstantExpr>(C)) {
        for (const Value *Op : C->operands())
          Pending.push_back(cast<Constant>(Op));
      }
    }
  }
  findInductions();
  for (const Instruction &I : instructions(F)) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(&I);
    int64_t Const, Stride, Elements;
    if (!GEP ||
        !gepOffset(cast<GEPOperator>(*GEP), DL, Const, Stride, &Elements))
      continue;
    // A constant step of a pointer induction variable moves by an unknown
    // multiple of the step: p, p+8, p+16, ... is an array.
    if (Stride == 0 && Const != 0 && InductionGEPs.contains(GEP))
      Stride = Const < 0 ? -Const : Const;
    GEPOffsets[GEP] = {Const, Stride, Elements};
  }
}

TypeTree FunctionSolver::get(const Value *V) {
  auto It = State.find(V);
  if (It != State.end())
    return It->second;
  if (const auto *GV = dyn_cast<GlobalValue>(V)) {
    TypeTree T = TypeTree::ofRoot(ConcreteType::Pointer);
    if (const auto *G = dyn_cast<GlobalVariable>(GV)) {
      T.merge(TypeTree::fromMemoryType(G->getValueType(), DL));
      T.merge(TypeTree::nonFloatBytesOfObject(G->getValueType(), DL));
    }
    State[GV] = T;
    return T;
  }
  if (const auto *C = dyn_cast<Constant>(V))
    return constantTree(C);
  return TypeTree();
}

void FunctionSolver::update(const Value *V, const TypeTree &T) {
  if (T.empty())
    return;
  bool IsLocal = isa<Argument>(V) || isa<Instruction>(V);
  if (IsLocal || isa<GlobalVariable>(V)) {
    if (!IsLocal)
      get(V); // Seeds a global's tree on first use.
    // The IR type of a pointer or float is certain: a union's conflict
    // stays in the memory that has it, instead of spreading through every
    // double loaded from there.
    Type *Ty = V->getType();
    ConcreteType Root = T.getRoot();
    bool Changed = TypeTree::usesRoot(Ty) && Root.isKnown() &&
                           Root != ConcreteType::fromIRType(Ty)
                       ? State[V].merge(T.withoutRoot())
                       : State[V].merge(T);
    if (!Changed)
      return;
    Saturated |= State[V].size() >= TypeTree::MaxEntries;
    if (IsLocal)
      enqueueUsers(V);
    else
      for (const Instruction *I : GlobalUsers.lookup(V))
        enqueue(I);
    return;
  }
  // Constant expressions over globals pass what their users learn on to
  // the global; other constants mean the same everywhere and stay as they
  // are.
  const auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE)
    return;
  if (const auto *GEP = dyn_cast<GEPOperator>(CE)) {
    int64_t Const, Stride;
    if (!gepOffset(*GEP, DL, Const, Stride))
      return;
    update(GEP->getPointerOperand(),
           (Stride ? T.repeat(Stride) : T).shift(-Const));
    return;
  }
  if (CE->isCast()) {
    Type *SrcTy = CE->getOperand(0)->getType();
    update(CE->getOperand(0), fromBytes(toBytes(T, CE->getType()), SrcTy));
  }
}

void FunctionSolver::enqueue(const Instruction *I) {
  auto It = Number.find(I);
  if (It == Number.end())
    return;
  if (It->second > Cursor)
    ThisSweep.set(It->second);
  else
    NextSweep.set(It->second);
}

void FunctionSolver::enqueueUsers(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    enqueue(I);
  for (const User *U : V->users())
    if (const auto *I = dyn_cast<Instruction>(U))
      if (I->getFunction() == &F)
        enqueue(I);
}

bool FunctionSolver::solve(const CallSummary &Inputs) {
  for (const Argument &A : F.args())
    if (A.getArgNo() < Inputs.Args.size())
      update(&A, Inputs.Args[A.getArgNo()]);
  RetTree.merge(Inputs.Ret);
  NextSweep.set();

  uint64_t Steps = 0;
  uint64_t MaxSteps = uint64_t(StepsPerInstruction) * Order.size() + MinSteps;
  while (NextSweep.any()) {
    std::swap(ThisSweep, NextSweep);
    NextSweep.reset();
    for (int N = ThisSweep.find_first(); N != -1; N = ThisSweep.find_next(N)) {
      if (++Steps > MaxSteps) {
        LLVM_DEBUG(dbgs() << "adjoint-types: step cap reached in '"
                          << F.getName() << "'\n");
        ThisSweep.reset();
        NextSweep.reset();
        return false;
      }
      Cursor = N;
      visit(*Order[N]);
    }
    ThisSweep.reset();
  }
  if (Saturated)
    LLVM_DEBUG(dbgs() << "adjoint-types: a tree of '" << F.getName()
                      << "' reached TypeTree::MaxEntries\n");
  return !Saturated;
}

CallSummary FunctionSolver::outputs() const {
  CallSummary Out;
  for (const Argument &A : F.args())
    Out.Args.push_back(State.lookup(&A));
  Out.Ret = RetTree;
  return Out;
}

DenseMap<const Value *, TypeTree> FunctionSolver::takeTrees() {
  for (const Instruction &I : instructions(F))
    for (const Value *Op : I.operands())
      if (isa<ConstantExpr>(Op) || isa<ConstantAggregate>(Op))
        State[Op] = constantTree(cast<Constant>(Op));
  return std::move(State);
}

void FunctionSolver::findInductions() {
  // Tarjan's strongly connected components, without recursion, over the
  // arguments and address-flow instructions. Edges go from operands to
  // users, and from an argument of a call of F itself to the parameter it
  // becomes: `f(p + 8)` inside f steps p like a loop does.
  auto Successors = [&](const Value *V, SmallVectorImpl<const Value *> &Out) {
    for (const Use &U : V->uses()) {
      const auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I || I->getFunction() != &F)
        continue;
      if (isAddressFlow(*I)) {
        Out.push_back(I);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(I);
      if (CB && CB->getCalledOperand() == &F && CB->isArgOperand(&U) &&
          CB->getArgOperandNo(&U) < F.arg_size())
        Out.push_back(F.getArg(CB->getArgOperandNo(&U)));
    }
  };
  DenseMap<const Value *, unsigned> Index, Low, Component;
  SmallPtrSet<const Value *, 16> OnStack;
  SmallVector<const Value *, 16> Stack;
  struct Frame {
    const Value *V;
    SmallVector<const Value *, 4> Next;
    unsigned Pos = 0;
  };
  SmallVector<Frame, 16> Calls;
  unsigned NextIndex = 0, NextComponent = 0;
  auto Open = [&](const Value *V) {
    Index[V] = NextIndex;
    Low[V] = NextIndex++;
    Stack.push_back(V);
    OnStack.insert(V);
    Calls.push_back(Frame{V, {}, 0});
    Successors(V, Calls.back().Next);
  };
  auto Visit = [&](const Value *Root) {
    if (Index.count(Root))
      return;
    Open(Root);
    while (!Calls.empty()) {
      Frame &Top = Calls.back();
      if (Top.Pos != Top.Next.size()) {
        const Value *W = Top.Next[Top.Pos++];
        auto Seen = Index.find(W);
        if (Seen == Index.end()) {
          Open(W);
        } else if (OnStack.count(W)) {
          unsigned &L = Low[Top.V];
          L = std::min(L, Seen->second);
        }
        continue;
      }
      const Value *V = Top.V;
      Calls.pop_back();
      unsigned LowV = Low[V];
      if (!Calls.empty()) {
        unsigned &L = Low[Calls.back().V];
        L = std::min(L, LowV);
      }
      if (LowV != Index[V])
        continue;
      const Value *Member;
      do {
        Member = Stack.pop_back_val();
        OnStack.erase(Member);
        Component[Member] = NextComponent;
      } while (Member != V);
      ++NextComponent;
    }
  };
  for (const Argument &A : F.args())
    Visit(&A);
  for (const Instruction &I : instructions(F))
    if (isAddressFlow(I))
      Visit(&I);

  for (const Instruction &I : instructions(F)) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(&I);
    if (!GEP)
      continue;
    auto Base = Component.find(GEP->getPointerOperand());
    auto Self = Component.find(GEP);
    if (Base != Component.end() && Self != Component.end() &&
        Base->second == Self->second)
      InductionGEPs.insert(GEP);
  }
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

TypeTree FunctionSolver::toBytes(const TypeTree &T, Type *From) const {
  return TypeTree::usesRoot(From) ? T.only(0) : T;
}

TypeTree FunctionSolver::fromBytes(const TypeTree &Bytes, Type *To) const {
  if (TypeTree::usesRoot(To))
    return Bytes.dereference(0);
  return Bytes.shift(0, storeSize(To, DL)).withoutRoot();
}

TypeTree FunctionSolver::integerTree(Type *T) const {
  TypeTree R;
  R.insertIntegerBytes(0, std::max<int64_t>(1, storeSize(T, DL)));
  return R;
}

void FunctionSolver::linkBytes(const Value *Whole, int64_t Off, int64_t Size,
                               const Value *Part, Type *PartTy) {
  update(Part, fromBytes(get(Whole).shift(Off, Size), PartTy));
  update(Whole, toBytes(get(Part), PartTy).shift(0, Size).shift(-Off));
}

TypeTree FunctionSolver::constantTree(const Constant *C) {
  Type *Ty = C->getType();
  if (const auto *CE = dyn_cast<ConstantExpr>(C)) {
    if (const auto *GEP = dyn_cast<GEPOperator>(CE)) {
      int64_t Const, Stride;
      if (!gepOffset(*GEP, DL, Const, Stride))
        return TypeTree::fromIRType(Ty, DL);
      TypeTree Base = get(GEP->getPointerOperand());
      return (Stride ? Base.repeat(Stride) : Base).shift(Const);
    }
    if (CE->isCast())
      return fromBytes(toBytes(get(CE->getOperand(0)),
                               CE->getOperand(0)->getType()),
                       Ty);
    return TypeTree::fromIRType(Ty, DL);
  }
  // Aggregates of constants: the bytes of each element, so that a struct
  // holding the address of a global knows what that global holds.
  if (isa<ConstantAggregate>(C) && C->getNumOperands() <= 64 &&
      !Ty->isVectorTy()) {
    TypeTree R;
    for (unsigned I = 0, E = C->getNumOperands(); I != E; ++I) {
      int64_t Off;
      Type *MemberTy;
      if (!memberOffset(Ty, {I}, DL, Off, MemberTy))
        return TypeTree::fromIRType(Ty, DL);
      const auto *Elt = cast<Constant>(C->getOperand(I));
      R.merge(toBytes(get(Elt), MemberTy).shift(-Off));
    }
    return R;
  }
  return TypeTree::fromIRType(Ty, DL);
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

void FunctionSolver::visit(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I)) {
    visitMemoryAccess(LI->getPointerOperand(), &I, I.getType());
    applyTBAA(I, LI->getPointerOperand(), &I, I.getType());
    return;
  }
  if (const auto *SI = dyn_cast<StoreInst>(&I)) {
    const Value *Val = SI->getValueOperand();
    visitMemoryAccess(SI->getPointerOperand(), Val, Val->getType());
    applyTBAA(I, SI->getPointerOperand(), Val, Val->getType());
    return;
  }
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    const Value *Val = RMW->getValOperand();
    visitMemoryAccess(RMW->getPointerOperand(), Val, Val->getType());
    visitMemoryAccess(RMW->getPointerOperand(), &I, I.getType());
    return;
  }
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    const Value *Ptr = CX->getPointerOperand();
    Type *ValTy = CX->getNewValOperand()->getType();
    visitMemoryAccess(Ptr, CX->getCompareOperand(), ValTy);
    visitMemoryAccess(Ptr, CX->getNewValOperand(), ValTy);
    // The result is {old value, success}: the old value's bytes come first.
    update(&I, toBytes(fromBytes(get(Ptr).shift(0, storeSize(ValTy, DL)),
                                 ValTy),
                       ValTy));
    return;
  }
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return visitGEP(*GEP);
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return visitCall(*CB);
  if (const auto *PN = dyn_cast<PHINode>(&I)) {
    for (const Value *In : PN->incoming_values())
      update(&I, get(In));
    TypeTree Joined = get(&I);
    for (const Value *In : PN->incoming_values())
      update(In, Joined);
    return;
  }
  if (const auto *Sel = dyn_cast<SelectInst>(&I)) {
    update(Sel->getCondition(), integerTree(Sel->getCondition()->getType()));
    update(&I, get(Sel->getTrueValue()));
    update(&I, get(Sel->getFalseValue()));
    TypeTree Joined = get(&I);
    update(Sel->getTrueValue(), Joined);
    update(Sel->getFalseValue(), Joined);
    return;
  }
  if (isa<CastInst>(&I))
    return visitCast(I);
  if (isa<FreezeInst>(&I)) {
    update(&I, get(I.getOperand(0)));
    update(I.getOperand(0), get(&I));
    return;
  }
  if (isa<CmpInst>(&I)) {
    update(&I, integerTree(I.getType()));
    // Integers are compared with integers.
    const Value *A = I.getOperand(0), *B = I.getOperand(1);
    Type *OpTy = A->getType();
    if (isa<ICmpInst>(&I) && OpTy->isIntegerTy() && !isa<Constant>(A) &&
        !isa<Constant>(B)) {
      int64_t Size = storeSize(OpTy, DL);
      if (isIntegerBytes(get(A), Size) || isIntegerBytes(get(B), Size)) {
        update(A, integerTree(OpTy));
        update(B, integerTree(OpTy));
      }
    }
    return;
  }
  if (isa<ExtractValueInst>(&I) || isa<InsertValueInst>(&I))
    return visitAggregate(I);
  if (isa<ExtractElementInst>(&I) || isa<InsertElementInst>(&I) ||
      isa<ShuffleVectorInst>(&I))
    return visitVector(I);
  if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
    const Value *RV = Ret->getReturnValue();
    if (!RV)
      return;
    update(RV, RetTree);
    if (RetTree.merge(get(RV)))
      for (const Instruction *Other : Returns)
        enqueue(Other);
    return;
  }
  if (const auto *AI = dyn_cast<AllocaInst>(&I)) {
    if (!isa<Constant>(AI->getArraySize()))
      update(AI->getArraySize(), integerTree(AI->getArraySize()->getType()));
    return;
  }
  if (!isa<BinaryOperator>(&I) || !I.getType()->isIntOrIntVectorTy())
    return;
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
    return visitAddSub(I);
  case Instruction::Mul:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
    return visitIntegerArithmetic(I);
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
    return visitShift(I);
  default: {
    // and/or/xor: on booleans, logic; on wider integers also the bit tricks
    // of float code (fabs as `and`, negation as `xor`, packing two floats
    // with `or`), so the result has the bytes of its operands and back.
    if (I.getType()->getScalarSizeInBits() == 1) {
      update(&I, integerTree(I.getType()));
      return;
    }
    for (const Value *Op : I.operands())
      if (!isa<Constant>(Op))
        update(&I, get(Op));
    TypeTree Result = get(&I);
    for (const Value *Op : I.operands())
      update(Op, Result);
    return;
  }
  }
}

void FunctionSolver::visitMemoryAccess(const Value *Ptr, const Value *Val,
                                       Type *ValTy) {
  linkBytes(Ptr, 0, storeSize(ValTy, DL), Val, ValTy);
}

void FunctionSolver::applyTBAA(const Instruction &I, const Value *Ptr,
                               const Value *Val, Type *ValTy) {
  const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
  ConcreteType T = tbaaAccessType(Tag, *F.getParent());
  // flang's descriptors hold integers besides their base address.
  if (!T.isKnown() && ValTy->isIntOrIntVectorTy() &&
      isFortranDescriptorAccess(Tag))
    T = ConcreteType::Integer;
  if (!T.isKnown())
    return;
  TypeTree Mem;
  if (T == ConcreteType::Integer)
    Mem.insertIntegerBytes(0, storeSize(ValTy, DL));
  else
    Mem.insert({TypeTree::Offset::exact(0)}, T);
  update(Ptr, Mem);
  update(Val, fromBytes(Mem, ValTy));
}

void FunctionSolver::visitGEP(const GetElementPtrInst &GEP) {
  for (const Use &Idx : GEP.indices())
    if (!isa<Constant>(Idx))
      update(Idx, integerTree(Idx->getType()));
  auto Known = GEPOffsets.find(&GEP);
  if (Known == GEPOffsets.end())
    return;
  auto [Const, Stride, Elements] = Known->second;
  const Value *Base = GEP.getPointerOperand();
  TypeTree FromBase = get(Base), FromResult = get(&GEP);
  if (Elements) {
    // One of a few array elements: each offset exactly. What the result
    // says of its own element holds for every element; what it says beyond
    // the element came from the base (mapping it back for every element
    // would feed on itself).
    TypeTree Result, BaseFromResult;
    TypeTree Element = FromResult.shift(0, Stride);
    for (int64_t K = 0; K != Elements; ++K) {
      Result.merge(FromBase.shift(Const + K * Stride));
      BaseFromResult.merge(Element.shift(-(Const + K * Stride)));
    }
    update(&GEP, Result);
    update(Base, BaseFromResult);
    return;
  }
  if (Stride) {
    FromBase = FromBase.repeat(Stride);
    FromResult = FromResult.repeat(Stride);
  }
  update(&GEP, FromBase.shift(Const));
  update(Base, FromResult.shift(-Const));
}

void FunctionSolver::visitCast(const Instruction &I) {
  const Value *Op = I.getOperand(0);
  Type *SrcTy = Op->getType(), *DstTy = I.getType();
  switch (I.getOpcode()) {
  case Instruction::BitCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    // Same bytes, other view.
    update(&I, fromBytes(toBytes(get(Op), SrcTy), DstTy));
    update(Op, fromBytes(toBytes(get(&I), DstTy), SrcTy));
    return;
  case Instruction::AddrSpaceCast:
    update(&I, get(Op));
    update(Op, get(&I));
    return;
  case Instruction::Trunc:
  case Instruction::ZExt: {
    // The low bytes of the wider value are the narrower one (on little-
    // endian targets); zext's new bytes are zeros, which say nothing.
    Type *Narrow = I.getOpcode() == Instruction::Trunc ? DstTy : SrcTy;
    if (SrcTy->isVectorTy() || !DL.isLittleEndian() ||
        Narrow->getScalarSizeInBits() % 8 != 0) {
      update(&I, integerTree(DstTy));
      return;
    }
    int64_t Size = storeSize(Narrow, DL);
    update(&I, get(Op).shift(0, Size));
    update(Op, get(&I).shift(0, Size));
    return;
  }
  case Instruction::SExt:
    update(&I, integerTree(DstTy));
    update(Op, integerTree(SrcTy));
    return;
  case Instruction::FPToSI:
  case Instruction::FPToUI:
    update(&I, integerTree(DstTy));
    return;
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    update(Op, integerTree(SrcTy));
    return;
  default:
    return;
  }
}

void FunctionSolver::visitIntegerArithmetic(const Instruction &I) {
  update(&I, integerTree(I.getType()));
  for (const Value *Op : I.operands())
    update(Op, integerTree(Op->getType()));
}

void FunctionSolver::visitAddSub(const Instruction &I) {
  if (I.getType()->isVectorTy())
    return visitIntegerArithmetic(I);
  // Integers, or pointer arithmetic on ptrtoint values: pointer +/- integer
  // is a pointer into the same memory, pointer - pointer an integer.
  bool IsSub = I.getOpcode() == Instruction::Sub;
  const Value *A = I.getOperand(0), *B = I.getOperand(1);
  int64_t Size = storeSize(I.getType(), DL);
  enum Kind { Const, Int, Ptr, Other };
  auto Classify = [&](const Value *V) {
    if (isa<ConstantInt>(V))
      return Const;
    TypeTree T = get(V);
    if (T.lookup({0}) == ConcreteType::Pointer)
      return Ptr;
    return isIntegerBytes(T, Size) ? Int : Other;
  };
  Kind KA = Classify(A), KB = Classify(B), KR = Classify(&I);
  bool IntA = KA == Const || KA == Int, IntB = KB == Const || KB == Int;
  TypeTree Integer = integerTree(I.getType());
  // The pointer described by bytes \p T, moved by +/- the integer \p Off.
  auto Move = [&](const TypeTree &T, const Value *Off, int64_t Sign) {
    Affine O = affineForm(Off);
    TypeTree P = T.dereference(0);
    if (O.second)
      P = P.repeat(O.second);
    return P.shift(Sign * O.first).only(0);
  };

  if (IntA && IntB && !(KA == Const && KB == Const))
    update(&I, Integer);
  if (IsSub && KA == Ptr && KB == Ptr)
    update(&I, Integer);
  if (KA == Ptr && IntB)
    update(&I, Move(get(A), B, IsSub ? -1 : 1));
  if (!IsSub && KB == Ptr && IntA)
    update(&I, Move(get(B), A, 1));

  if (KR == Int) {
    if (!IsSub || IntB)
      update(A, Integer);
    if (!IsSub || IntA)
      update(B, Integer);
  }
  if (KR == Ptr) {
    if (IntB)
      update(A, Move(get(&I), B, IsSub ? 1 : -1));
    if (!IsSub && IntA)
      update(B, Move(get(&I), A, -1));
  }
}

void FunctionSolver::visitShift(const Instruction &I) {
  const Value *Val = I.getOperand(0), *Amount = I.getOperand(1);
  Type *Ty = I.getType();
  const auto *K = dyn_cast<ConstantInt>(Amount);
  if (!K) {
    // A variable shift is arithmetic on an integer.
    update(&I, integerTree(Ty));
    update(Val, integerTree(Ty));
    update(Amount, integerTree(Amount->getType()));
    return;
  }
  uint64_t Bits = K->getZExtValue();
  if (Ty->isVectorTy() || !DL.isLittleEndian() || Bits % 8 != 0 ||
      Bits >= Ty->getScalarSizeInBits()) {
    // Bits moved within bytes make a new integer; the operand may still
    // be the bits of a float (sign or exponent tests), so it learns nothing.
    update(&I, integerTree(Ty));
    return;
  }
  // Whole bytes move: a shift of the bytes (little-endian).
  int64_t Bytes = Bits / 8, Size = storeSize(Ty, DL);
  if (I.getOpcode() == Instruction::Shl) {
    update(&I, get(Val).shift(0, Size - Bytes).shift(-Bytes));
    update(Val, get(&I).shift(Bytes, Size - Bytes));
    return;
  }
  update(&I, get(Val).shift(Bytes, Size - Bytes));
  update(Val, get(&I).shift(0, Size - Bytes).shift(-Bytes));
}

void FunctionSolver::visitAggregate(const Instruction &I) {
  if (const auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    int64_t Off;
    Type *MemberTy;
    if (memberOffset(EV->getAggregateOperand()->getType(), EV->getIndices(),
                     DL, Off, MemberTy))
      linkBytes(EV->getAggregateOperand(), Off, storeSize(MemberTy, DL), &I,
                MemberTy);
    return;
  }
  const auto *IV = cast<InsertValueInst>(&I);
  const Value *Agg = IV->getAggregateOperand();
  update(&I, get(Agg));
  update(Agg, get(&I));
  int64_t Off;
  Type *MemberTy;
  if (memberOffset(Agg->getType(), IV->getIndices(), DL, Off, MemberTy))
    linkBytes(&I, Off, storeSize(MemberTy, DL), IV->getInsertedValueOperand(),
              MemberTy);
}

void FunctionSolver::visitVector(const Instruction &I) {
  auto *VecTy = dyn_cast<FixedVectorType>(
      isa<ExtractElementInst>(&I) ? I.getOperand(0)->getType() : I.getType());
  if (!VecTy || VecTy->getScalarSizeInBits() % 8 != 0 ||
      !DL.isLittleEndian())
    return;
  Type *EltTy = VecTy->getElementType();
  int64_t Lane = VecTy->getScalarSizeInBits() / 8;
  int64_t VecSize = storeSize(VecTy, DL);

  if (const auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    auto *SrcTy = dyn_cast<FixedVectorType>(SV->getOperand(0)->getType());
    if (!SrcTy)
      return;
    int64_t N = SrcTy->getNumElements();
    ArrayRef<int> Mask = SV->getShuffleMask();
    for (int64_t Out = 0, E = Mask.size(); Out != E; ++Out) {
      if (Mask[Out] < 0)
        continue;
      const Value *Src = SV->getOperand(Mask[Out] < N ? 0 : 1);
      int64_t In = Mask[Out] % N;
      update(&I, get(Src).shift(In * Lane, Lane).shift(-Out * Lane));
      update(Src, get(&I).shift(Out * Lane, Lane).shift(-In * Lane));
    }
    return;
  }

  const Value *Vec = I.getOperand(0);
  const Value *Index = I.getOperand(isa<ExtractElementInst>(&I) ? 1 : 2);
  if (!isa<Constant>(Index))
    update(Index, integerTree(Index->getType()));
  const auto *K = dyn_cast<ConstantInt>(Index);
  if (isa<ExtractElementInst>(&I)) {
    if (K) {
      linkBytes(Vec, K->getZExtValue() * Lane, Lane, &I, EltTy);
      return;
    }
    // Some lane: every lane.
    update(&I, fromBytes(get(Vec).repeat(Lane).shift(0, Lane), EltTy));
    update(Vec, toBytes(get(&I), EltTy).shift(0, Lane).repeat(Lane).shift(
                    0, VecSize));
    return;
  }
  const Value *Elt = I.getOperand(1);
  update(&I, get(Vec));
  update(Vec, get(&I));
  if (K) {
    linkBytes(&I, K->getZExtValue() * Lane, Lane, Elt, EltTy);
    return;
  }
  update(&I,
         toBytes(get(Elt), EltTy).shift(0, Lane).repeat(Lane).shift(0, VecSize));
}

void FunctionSolver::visitTransfer(const CallBase &CB, const Value *Dst,
                                   const Value *Src, const Value *Len) {
  int64_t Size = TypeTree::Unbounded;
  if (const auto *K = dyn_cast<ConstantInt>(Len))
    Size = K->getSExtValue();
  else
    update(Len, integerTree(Len->getType()));
  // Both sides hold the same bytes afterwards; a copy of unknown length is
  // taken to copy everything its pointers describe (arrays).
  TypeTree FromSrc = get(Src).shift(0, Size).withoutRoot();
  TypeTree FromDst = get(Dst).shift(0, Size).withoutRoot();
  update(Dst, FromSrc);
  update(Src, FromDst);

  // !tbaa.struct: (offset, size, tag) triples, one per copied field.
  const MDNode *Fields = CB.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!Fields || Fields->getNumOperands() % 3 != 0)
    return;
  TypeTree Mem;
  for (unsigned I = 0, E = Fields->getNumOperands(); I != E; I += 3) {
    auto *Off = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(I));
    auto *Len = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(I + 1));
    auto *Tag = dyn_cast<MDNode>(Fields->getOperand(I + 2));
    if (!Off || !Len || !Tag)
      continue;
    ConcreteType T = tbaaAccessType(Tag, *F.getParent());
    if (T == ConcreteType::Integer)
      Mem.insertIntegerBytes(Off->getSExtValue(), Len->getSExtValue());
    else
      Mem.insert({TypeTree::Offset::exact(Off->getSExtValue())}, T);
  }
  update(Dst, Mem);
  update(Src, Mem);
}

void FunctionSolver::visitCall(const CallBase &CB) {
  if (isa<DbgInfoIntrinsic>(&CB))
    return;
  if (const auto *MT = dyn_cast<MemTransferInst>(&CB))
    return visitTransfer(CB, MT->getRawDest(), MT->getRawSource(),
                         MT->getLength());
  if (const auto *MS = dyn_cast<MemSetInst>(&CB)) {
    if (!isa<Constant>(MS->getLength()))
      update(MS->getLength(), integerTree(MS->getLength()->getType()));
    return;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    if (ID == Intrinsic::ptrmask) {
      update(&CB, get(CB.getArgOperand(0)));
      update(CB.getArgOperand(0), get(&CB));
    } else if (isIntegerIntrinsic(ID)) {
      update(&CB, integerTree(CB.getType()));
      for (const Value *Op : CB.args())
        if (Op->getType()->isIntOrIntVectorTy() && !isa<Constant>(Op))
          update(Op, integerTree(Op->getType()));
    } else if (ID == Intrinsic::lround || ID == Intrinsic::llround ||
               ID == Intrinsic::lrint || ID == Intrinsic::llrint ||
               ID == Intrinsic::is_fpclass) {
      update(&CB, integerTree(CB.getType()));
    }
    return;
  }

  const auto *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee)
    return;
  if (Callee->isDeclaration()) {
    visitKnownFunction(CB);
    return;
  }
  if (CB.getFunctionType() != Callee->getFunctionType())
    return;
  CallSummary Pattern;
  for (unsigned I = 0, E = Callee->arg_size(); I != E; ++I)
    Pattern.Args.push_back(get(CB.getArgOperand(I)));
  if (!CB.getType()->isVoidTy())
    Pattern.Ret = get(&CB);
  const CallSummary *Result = Summarize(*Callee, Pattern);
  if (!Result)
    return;
  // Copy first: the summary may move while updates run.
  CallSummary Learned = *Result;
  for (unsigned I = 0, E = Learned.Args.size(); I != E; ++I)
    update(CB.getArgOperand(I), Learned.Args[I]);
  if (!CB.getType()->isVoidTy())
    update(&CB, Learned.Ret);
}

bool FunctionSolver::visitKnownFunction(const CallBase &CB) {
  StringRef Tokens =
      knownSignature(CB.getCalledOperand()->stripPointerCasts()->getName());
  if (Tokens.empty())
    return false;
  if (Tokens == "cpy") {
    if (CB.arg_size() < 3)
      return false;
    visitTransfer(CB, CB.getArgOperand(0), CB.getArgOperand(1),
                  CB.getArgOperand(2));
    // memcpy and memmove return their destination.
    update(&CB, get(CB.getArgOperand(0)));
    update(CB.getArgOperand(0), get(&CB));
    return true;
  }
  SmallVector<StringRef, 6> Positions;
  Tokens.split(Positions, ' ');
  for (unsigned Pos = 0, E = Positions.size(); Pos != E; ++Pos) {
    const Value *V = nullptr;
    if (Pos == 0)
      V = CB.getType()->isVoidTy() ? nullptr : &CB;
    else if (Pos - 1 < CB.arg_size())
      V = CB.getArgOperand(Pos - 1);
    if (!V)
      continue;
    StringRef Tok = Positions[Pos];
    TypeTree Pointee;
    if (Tok == "i") {
      update(V, integerTree(V->getType()));
      continue;
    }
    if (Tok == "=a" && CB.arg_size() > 0) {
      // realloc: the new memory holds what the old one did.
      update(V, get(CB.getArgOperand(0)));
      update(CB.getArgOperand(0), get(V));
      continue;
    }
    if (Tok == "*i")
      Pointee.insertIntegerBytes(0, 4);
    else if (Tok == "*p")
      Pointee.insert({TypeTree::Offset::exact(0)}, ConcreteType::Pointer);
    else if (Tok == "*a" && CB.arg_size() > 0)
      Pointee = TypeTree::fromMemoryType(CB.getArgOperand(0)->getType(), DL);
    else
      continue;
    Pointee.insert(ArrayRef<TypeTree::Offset>(), ConcreteType::Pointer);
    update(V, Pointee);
  }
  return true;
}

} // namespace adjoint
