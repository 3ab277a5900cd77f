//===- TypeAnalysis.cpp - Interprocedural driver, results, printer ----------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Summaries and recursion
// -----------------------
// A call to a defined function is answered by a summary of the callee for
// the trees the caller has of the arguments and the result (the pattern).
// Summaries are cached per (function, pattern). Recursion is handled with
// the stack of functions being analyzed: a call to a function already on the
// stack gets that frame's current outputs, and widens its inputs; the frame
// then runs again until neither its inputs nor its outputs change. Summaries
// computed while a frame lower on the stack was still changing depend on it:
// they are kept as provisional, dropped when that frame runs again, and
// never returned to the user.
//
//===----------------------------------------------------------------------===//

#include "adjoint/TypeAnalysis/TypeAnalysis.h"
#include "FunctionSolver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

static cl::opt<bool> AssumeUnknownIsFloatOpt(
    "adjoint-assume-unknown-is-float", cl::init(false),
    cl::desc("Treat bytes whose type Adjoint's type analysis cannot "
             "determine as floating-point numbers instead of reporting them"));

namespace adjoint {

bool assumeUnknownIsFloat() { return AssumeUnknownIsFloatOpt; }

namespace {

/// Different argument patterns of one function analyzed at most this often;
/// further calls get no summary (their IR types still hold).
constexpr unsigned MaxSummariesPerFunction = 32;
/// Chains of calls deeper than this get no summary.
constexpr unsigned MaxCallDepth = 64;
/// A recursive function is analyzed at most this many times per summary.
constexpr unsigned MaxRecursionRounds = 16;

int64_t storeSize(Type *T, const DataLayout &DL) {
  TypeSize S = DL.getTypeStoreSize(T);
  return S.isScalable() ? 0 : int64_t(S.getFixedValue());
}

std::string patternKey(const CallSummary &P) {
  std::string Key;
  raw_string_ostream OS(Key);
  for (const TypeTree &T : P.Args)
    OS << T << ';';
  OS << P.Ret;
  return Key;
}

/// Joins adjacent segments of one type.
void coalesce(SmallVectorImpl<TypeSegment> &Segs) {
  SmallVector<TypeSegment, 4> Out;
  for (const TypeSegment &S : Segs) {
    if (!Out.empty() && Out.back().Type == S.Type &&
        Out.back().Offset + Out.back().Size == S.Offset) {
      Out.back().Size += S.Size;
      continue;
    }
    Out.push_back(S);
  }
  Segs.assign(Out.begin(), Out.end());
}

/// Under -adjoint-assume-unknown-is-float, Unknown runs become floats: of
/// the kind of the access type when it fits the run, else of the largest
/// kind that divides the run.
void applyAssumption(SmallVectorImpl<TypeSegment> &Segs, Type *AccessTy,
                     const DataLayout &DL) {
  if (!assumeUnknownIsFloat())
    return;
  ConcreteType Hint;
  if (AccessTy) {
    Type *Scalar = AccessTy->getScalarType();
    Hint = Scalar->isFloatingPointTy()
               ? ConcreteType::fromIRType(Scalar)
               : ConcreteType::floatOfSize(storeSize(Scalar, DL));
  }
  for (TypeSegment &S : Segs) {
    if (S.Type.isKnown())
      continue;
    if (Hint.isKnown() && S.Size % int64_t(Hint.getSizeInBytes(DL)) == 0)
      S.Type = Hint;
    else if (S.Size % 8 == 0)
      S.Type = ConcreteType::Double;
    else if (S.Size % 4 == 0)
      S.Type = ConcreteType::Float;
  }
  coalesce(Segs);
}

using FieldList = SmallVector<std::pair<int64_t, int64_t>, 8>;

/// Adds the (offset, size) of every scalar in a value of type \p T at
/// \p Off: what a first-class aggregate access really touches.
void addFields(Type *T, int64_t Off, const DataLayout &DL, FieldList &Out) {
  if (Out.size() > 4096)
    return;
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0, E = ST->getNumElements(); I != E; ++I)
      addFields(ST->getElementType(I),
                Off + SL->getElementOffset(I).getFixedValue(), DL, Out);
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    int64_t Stride = DL.getTypeAllocSize(AT->getElementType()).getFixedValue();
    for (uint64_t I = 0, E = AT->getNumElements(); I != E; ++I)
      addFields(AT->getElementType(), Off + I * Stride, DL, Out);
    return;
  }
  Out.push_back({Off, storeSize(T, DL)});
}

/// What the bytes of \p I's access are made of, if anything says so: the
/// members of a struct it loads or stores, or the fields clang lists in a
/// memcpy's !tbaa.struct. Bytes outside them are padding.
bool knownFields(const Instruction &I, const DataLayout &DL, FieldList &Out) {
  Type *AccessTy = nullptr;
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    AccessTy = LI->getType();
  else if (const auto *SI = dyn_cast<StoreInst>(&I))
    AccessTy = SI->getValueOperand()->getType();
  if (AccessTy) {
    if (!AccessTy->isStructTy() && !AccessTy->isArrayTy())
      return false;
    addFields(AccessTy, 0, DL, Out);
    return true;
  }
  const MDNode *Fields = I.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!Fields || Fields->getNumOperands() % 3 != 0)
    return false;
  for (unsigned Op = 0, E = Fields->getNumOperands(); Op != E; Op += 3) {
    auto *Off = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(Op));
    auto *Len = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(Op + 1));
    if (!Off || !Len)
      return false;
    Out.push_back({Off->getSExtValue(), Len->getSExtValue()});
  }
  return true;
}

/// Unknown bytes that no field covers are padding: they carry no
/// derivative, so they are reported as Integer.
void markPadding(SmallVectorImpl<TypeSegment> &Segs, const FieldList &Fields) {
  SmallVector<TypeSegment, 4> Out;
  auto Covered = [&](int64_t B) {
    return any_of(Fields, [&](const std::pair<int64_t, int64_t> &F) {
      return F.first <= B && B < F.first + F.second;
    });
  };
  for (const TypeSegment &S : Segs) {
    if (S.Type.isKnown()) {
      Out.push_back(S);
      continue;
    }
    for (int64_t B = S.Offset; B < S.Offset + S.Size; ++B)
      Out.push_back(TypeSegment{B, 1,
                                Covered(B) ? ConcreteType::Unknown
                                           : ConcreteType::Integer});
  }
  coalesce(Out);
  Segs.assign(Out.begin(), Out.end());
}

} // namespace

//===----------------------------------------------------------------------===//
// ByteSummary
//===----------------------------------------------------------------------===//

ByteSummary::Class ByteSummary::getClass() const {
  bool SawFloat = false, SawOther = false;
  for (const TypeSegment &S : Segments) {
    if (!S.Type.isKnown() || S.Type == ConcreteType::Anything)
      return Undecided;
    SawFloat |= S.Type.isFloat();
    SawOther |= S.Type.isNonFloat();
  }
  if (!SawFloat && !SawOther)
    return Undecided;
  if (SawFloat && SawOther)
    return Mixed;
  return SawFloat ? Float : NonFloat;
}

bool ByteSummary::hasFloat() const {
  return any_of(Segments,
                [](const TypeSegment &S) { return S.Type.isFloat(); });
}

ConcreteType ByteSummary::getFloatKind() const {
  ConcreteType Kind;
  for (const TypeSegment &S : Segments)
    if (S.Type.isFloat())
      Kind.joinWith(S.Type);
  return Kind;
}

SmallVector<TypeSegment, 2> ByteSummary::undecided() const {
  SmallVector<TypeSegment, 2> Result;
  for (const TypeSegment &S : Segments)
    if (!S.Type.isKnown() || S.Type == ConcreteType::Anything)
      Result.push_back(S);
  return Result;
}

std::string ByteSummary::describeUndecided() const {
  std::string Text;
  raw_string_ostream OS(Text);
  ListSeparator Sep("; ");
  for (const TypeSegment &S : undecided()) {
    OS << Sep;
    if (S.Size == 1)
      OS << "byte " << S.Offset;
    else
      OS << "bytes " << S.Offset << ".." << S.Offset + S.Size - 1;
    if (S.Type.isKnown())
      OS << (S.Size == 1 ? " is" : " are") << " used as different types";
    else
      OS << (S.Size == 1 ? " has" : " have") << " no known type";
  }
  return Text;
}

void ByteSummary::print(raw_ostream &OS) const {
  ListSeparator Sep(" ");
  for (const TypeSegment &S : Segments)
    OS << Sep << '[' << S.Offset << ',' << S.Offset + S.Size << "):" << S.Type;
}

std::string ByteSummary::str() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

//===----------------------------------------------------------------------===//
// FunctionTypeInfo
//===----------------------------------------------------------------------===//

FunctionTypeInfo::FunctionTypeInfo(const Function &F) : F(F) {}

TypeTree FunctionTypeInfo::getTree(const Value *V) const {
  auto It = Trees.find(V);
  if (It != Trees.end())
    return It->second;
  const DataLayout &DL = F.getParent()->getDataLayout();
  if (const auto *G = dyn_cast<GlobalVariable>(V)) {
    TypeTree T = TypeTree::ofRoot(ConcreteType::Pointer);
    T.merge(TypeTree::fromMemoryType(G->getValueType(), DL));
    return T;
  }
  if (isa<Constant>(V))
    return TypeTree::fromIRType(V->getType(), DL);
  return TypeTree();
}

ByteSummary FunctionTypeInfo::queryPointee(const Value *Ptr, int64_t Off,
                                           int64_t Size, Type *AccessTy) const {
  const DataLayout &DL = F.getParent()->getDataLayout();
  if (Off < 0)
    return ByteSummary({TypeSegment{Off, std::max<int64_t>(Size, 1),
                                    ConcreteType::Unknown}});
  TypeTree T = getTree(Ptr);
  if (Size == UnknownSize) {
    int64_t End, Period;
    T.extent(DL, End, Period);
    Size = std::max<int64_t>({End - Off, Period, 1});
  }
  SmallVector<TypeSegment, 4> Segs;
  T.byteSegments({}, Off, Size, DL, Segs);
  applyAssumption(Segs, AccessTy, DL);
  return ByteSummary(std::move(Segs));
}

ByteSummary FunctionTypeInfo::queryValue(const Value *V) const {
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *Ty = V->getType();
  int64_t Size = std::max<int64_t>(storeSize(Ty, DL), 1);
  TypeTree T = getTree(V);
  SmallVector<TypeSegment, 4> Segs;
  if (TypeTree::usesRoot(Ty))
    Segs.push_back(TypeSegment{0, Size, T.getRoot()});
  else
    T.byteSegments({}, 0, Size, DL, Segs);
  applyAssumption(Segs, Ty, DL);
  return ByteSummary(std::move(Segs));
}

ByteSummary FunctionTypeInfo::queryAccess(const Instruction &I) const {
  ByteSummary Bytes = queryAccessBytes(I);
  FieldList Fields;
  if (Bytes.getClass() != ByteSummary::Undecided ||
      !knownFields(I, F.getParent()->getDataLayout(), Fields))
    return Bytes;
  SmallVector<TypeSegment, 4> Segs(Bytes.segments());
  markPadding(Segs, Fields);
  return ByteSummary(std::move(Segs));
}

ByteSummary FunctionTypeInfo::queryAccessBytes(const Instruction &I) const {
  const DataLayout &DL = F.getParent()->getDataLayout();
  auto Access = [&](const Value *Ptr, Type *Ty) {
    return queryPointee(Ptr, 0, std::max<int64_t>(storeSize(Ty, DL), 1), Ty);
  };
  auto Bulk = [&](const Value *Ptr, const Value *Len) {
    const auto *K = dyn_cast<ConstantInt>(Len);
    if (K && K->isZero())
      return ByteSummary();
    return queryPointee(Ptr, 0, K ? K->getSExtValue() : UnknownSize);
  };
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return Access(LI->getPointerOperand(), LI->getType());
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return Access(SI->getPointerOperand(), SI->getValueOperand()->getType());
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return Access(RMW->getPointerOperand(), RMW->getValOperand()->getType());
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return Access(CX->getPointerOperand(),
                  CX->getNewValOperand()->getType());
  if (const auto *MI = dyn_cast<MemIntrinsic>(&I))
    return Bulk(MI->getRawDest(), MI->getLength());
  if (const auto *CB = dyn_cast<CallBase>(&I)) {
    const Function *Callee = CB->getCalledFunction();
    if (Callee && CB->arg_size() == 3 &&
        (Callee->getName() == "memcpy" || Callee->getName() == "memmove" ||
         Callee->getName() == "memset"))
      return Bulk(CB->getArgOperand(0), CB->getArgOperand(2));
  }
  return ByteSummary();
}

void FunctionTypeInfo::print(raw_ostream &OS) const {
  ModuleSlotTracker MST(F.getParent());
  MST.incorporateFunction(F);
  OS << "types of '" << F.getName() << "':\n";
  for (const Argument &A : F.args()) {
    OS << "  arg ";
    A.printAsOperand(OS, /*PrintType=*/false, MST);
    OS << ": " << getTree(&A) << '\n';
  }
  for (const Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy())
      continue;
    OS << "  ";
    I.printAsOperand(OS, /*PrintType=*/false, MST);
    OS << " = " << I.getOpcodeName() << ": " << getTree(&I) << '\n';
  }
  if (!F.getReturnType()->isVoidTy())
    OS << "  return: " << Summary.Ret << '\n';
  if (!Complete)
    OS << "  (incomplete: a cap of the analysis was reached)\n";
}

//===----------------------------------------------------------------------===//
// TypeAnalyzer
//===----------------------------------------------------------------------===//

struct TypeAnalyzer::Impl {
  struct Record {
    CallSummary Outputs;
    std::unique_ptr<FunctionTypeInfo> Info;
    /// The lowest stack frame this summary depends on (provisional ones).
    unsigned MinDep;
  };
  struct Frame {
    const Function *F;
    CallSummary Inputs;
    CallSummary Outputs;
    unsigned MinDep;
    bool Rerun = false;
    bool UsedRecursively = false;
    bool Complete = true;
  };
  using Key = std::pair<const Function *, std::string>;

  std::map<Key, std::unique_ptr<Record>> Final, Provisional;
  bool FollowCalls = true;
  DenseMap<const Function *, unsigned> Count;
  SmallVector<std::unique_ptr<Frame>, 8> Stack;

  const CallSummary *summarize(const Function &F, const CallSummary &Pattern);
  Record &compute(const Function &F, const CallSummary &Pattern, Key K);

  void noteDependency(unsigned Depth) {
    if (!Stack.empty())
      Stack.back()->MinDep = std::min(Stack.back()->MinDep, Depth);
  }
  void noteIncomplete() {
    if (!Stack.empty())
      Stack.back()->Complete = false;
  }
  /// Drops the provisional summaries that depend on frame \p Depth or above.
  void dropProvisional(unsigned Depth) {
    for (auto It = Provisional.begin(); It != Provisional.end();) {
      if (It->second->MinDep >= Depth) {
        --Count[It->first.first];
        It = Provisional.erase(It);
      } else {
        ++It;
      }
    }
  }
};

const CallSummary *TypeAnalyzer::Impl::summarize(const Function &F,
                                                 const CallSummary &Pattern) {
  Key K(&F, patternKey(Pattern));
  auto Done = Final.find(K);
  if (Done != Final.end()) {
    if (!Done->second->Info->isComplete())
      noteIncomplete();
    return &Done->second->Outputs;
  }
  // Recursion: the innermost frame of F answers with what it has so far.
  for (size_t D = Stack.size(); D-- > 0;) {
    Frame &Fr = *Stack[D];
    if (Fr.F != &F)
      continue;
    for (size_t I = 0, E = Pattern.Args.size(); I != E; ++I)
      Fr.Rerun |= Fr.Inputs.Args[I].merge(Pattern.Args[I]);
    Fr.Rerun |= Fr.Inputs.Ret.merge(Pattern.Ret);
    Fr.UsedRecursively = true;
    noteDependency(D);
    return &Fr.Outputs;
  }
  auto Pending = Provisional.find(K);
  if (Pending != Provisional.end()) {
    noteDependency(Pending->second->MinDep);
    if (!Pending->second->Info->isComplete())
      noteIncomplete();
    return &Pending->second->Outputs;
  }
  if (Count[&F] >= MaxSummariesPerFunction || Stack.size() >= MaxCallDepth) {
    noteIncomplete();
    return nullptr;
  }
  return &compute(F, Pattern, std::move(K)).Outputs;
}

TypeAnalyzer::Impl::Record &
TypeAnalyzer::Impl::compute(const Function &F, const CallSummary &Pattern,
                            Key K) {
  unsigned Depth = Stack.size();
  Stack.push_back(std::make_unique<Frame>(Frame{&F, Pattern, {}, Depth}));
  Frame &Fr = *Stack.back();

  auto Summarize = [this](const Function &Callee,
                           const CallSummary &P) -> const CallSummary * {
    return FollowCalls ? summarize(Callee, P) : nullptr;
  };
  FunctionSolver Solver(F, Summarize);
  for (unsigned Round = 1;; ++Round) {
    Fr.Rerun = false;
    Fr.Complete &= Solver.solve(Fr.Inputs);
    CallSummary Out = Solver.outputs();
    if (Fr.UsedRecursively && Out != Fr.Outputs)
      Fr.Rerun = true;
    Fr.Outputs = std::move(Out);
    if (!Fr.Rerun)
      break;
    if (Round == MaxRecursionRounds) {
      Fr.Complete = false;
      break;
    }
    // What was computed from this frame's old state is stale.
    dropProvisional(Depth);
  }
  dropProvisional(Depth);

  auto Info = std::make_unique<FunctionTypeInfo>(F);
  Info->Trees = Solver.takeTrees();
  Info->Summary = Fr.Outputs;
  Info->Complete = Fr.Complete;
  auto R = std::make_unique<Record>(
      Record{Fr.Outputs, std::move(Info), Fr.MinDep});
  unsigned MinDep = Fr.MinDep;
  bool Complete = Fr.Complete;
  Stack.pop_back();

  ++Count[&F];
  if (!Complete)
    noteIncomplete();
  auto &Map = MinDep < Depth ? Provisional : Final;
  if (MinDep < Depth)
    noteDependency(MinDep);
  std::unique_ptr<Record> &Slot = Map[std::move(K)];
  Slot = std::move(R);
  return *Slot;
}

TypeAnalyzer::TypeAnalyzer() : P(std::make_unique<Impl>()) {}
TypeAnalyzer::~TypeAnalyzer() = default;
TypeAnalyzer::TypeAnalyzer(TypeAnalyzer &&) = default;
TypeAnalyzer &TypeAnalyzer::operator=(TypeAnalyzer &&) = default;

const FunctionTypeInfo &TypeAnalyzer::analyze(const Function &F,
                                              ArrayRef<TypeTree> Args,
                                              const TypeTree &Ret) {
  assert(!F.isDeclaration() && "only defined functions can be analyzed");
  assert(P->Stack.empty() && "analyze() is not reentrant");
  CallSummary Pattern;
  Pattern.Args.assign(Args.begin(), Args.end());
  Pattern.Args.resize(F.arg_size());
  Pattern.Ret = Ret;
  Impl::Key K(&F, patternKey(Pattern));
  auto Done = P->Final.find(K);
  if (Done != P->Final.end())
    return *Done->second->Info;
  return *P->compute(F, Pattern, std::move(K)).Info;
}

void TypeAnalyzer::clear() {
  P->Final.clear();
  P->Provisional.clear();
  P->Count.clear();
}

unsigned TypeAnalyzer::getNumSummaries() const {
  return P->Final.size() + P->Provisional.size();
}

void TypeAnalyzer::setFollowCalls(bool Follow) {
  P->FollowCalls = Follow;
  clear(); // Summaries computed the other way would be reused wrongly.
}

bool TypeAnalyzer::invalidate(Module &, const PreservedAnalyses &PA,
                              ModuleAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<TypeAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Module>>();
}

//===----------------------------------------------------------------------===//
// Pass manager glue
//===----------------------------------------------------------------------===//

AnalysisKey TypeAnalysis::Key;

TypeAnalysis::Result TypeAnalysis::run(Module &, ModuleAnalysisManager &) {
  return TypeAnalyzer();
}

PreservedAnalyses TypeAnalysisPrinterPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  TypeAnalyzer Analyzer;
  for (const Function &F : M)
    if (!F.isDeclaration())
      Analyzer.analyze(F).print(OS);
  return PreservedAnalyses::all();
}

} // namespace adjoint
