//===- Preprocess.cpp - Canonical form for AD -------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

using namespace llvm;

static cl::opt<bool> InlineCallees(
    "adjoint-inline-callees", cl::init(true), cl::Hidden,
    cl::desc("Inline the functions the differentiated function calls into "
             "its clone (off: every call is differentiated as a call)"));

namespace adjoint {

namespace {

/// How many instructions inlining may add to one clone.
constexpr unsigned InlineBudget = 20000;

/// How many times the descriptors of a clone with library models are
/// forwarded and folded.
constexpr unsigned MaxDescriptorRounds = 8;

/// How many times function pointers stored by the clone are forwarded to
/// their loads, and the calls made direct inlined.
constexpr unsigned MaxIndirectCallRounds = 8;

/// A call site waiting to be inlined, with the chain of callees whose
/// inlining exposed it (as LLVM's inliner keeps an inline history).
struct PendingCall {
  CallBase *Call;
  int History; ///< Index into the history, -1 at the top level.
};

bool inHistory(ArrayRef<std::pair<Function *, int>> History, int Id,
               const Function *F) {
  for (; Id >= 0; Id = History[Id].second)
    if (History[Id].first == F)
      return true;
  return false;
}

/// Inlines, into the clone, the calls to functions defined in this module,
/// so that -O0 code (where nothing was inlined) reaches AD in the same shape
/// as optimized code. Recursive calls, calls to functions \p KeepCallsTo
/// keeps, and what exceeds the budget stay calls. \p Added counts the
/// instructions inlined so far, against the budget. Library models are
/// inlined whatever the budget and -adjoint-inline-callees say: they stand
/// for the library, not for the program's functions; with \p OnlyModels,
/// nothing else is. Returns whether anything was inlined.
bool inlineDefinedCallees(Function &Clone, const Function &Original,
                          function_ref<bool(const Function &)> KeepCallsTo,
                          unsigned &Added, bool OnlyModels = false) {
  SmallVector<std::pair<Function *, int>, 16> History;
  SmallVector<PendingCall, 16> Worklist;
  auto Enqueue = [&](CallBase *Call, int HistoryId) {
    Function *Callee = Call->getCalledFunction();
    if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
        Callee == &Clone || Callee == &Original ||
        (KeepCallsTo && KeepCallsTo(*Callee)))
      return;
    if (isLibraryModel(*Callee) || (!OnlyModels && InlineCallees))
      Worklist.push_back({Call, HistoryId});
  };
  for (Instruction &I : instructions(Clone))
    if (auto *Call = dyn_cast<CallBase>(&I))
      Enqueue(Call, -1);

  bool Inlined = false;
  while (!Worklist.empty()) {
    PendingCall P = Worklist.pop_back_val();
    Function *Callee = P.Call->getCalledFunction();
    bool Model = isLibraryModel(*Callee);
    if (inHistory(History, P.History, Callee) ||
        (!Model && Added + Callee->getInstructionCount() > InlineBudget))
      continue;
    InlineFunctionInfo IFI;
    if (!InlineFunction(*P.Call, IFI).isSuccess())
      continue;
    if (!Model)
      Added += Callee->getInstructionCount();
    Inlined = true;
    History.push_back({Callee, P.History});
    for (CallBase *New : IFI.InlinedCallSites)
      Enqueue(New, History.size() - 1);
  }
  return Inlined;
}

/// Gives every floating-point vector lane a defined value. The optimizer
/// leaves poison in lanes nobody reads (masks like <1, poison>, constants
/// like <2.0, poison>); the reverse pass multiplies those lanes by a zero
/// adjoint, and 0 * poison is poison. So poison constant lanes become 0 and
/// poison mask lanes select a zero (or at least a defined) lane.
void defineVectorLanes(Function &F) {
  for (Instruction &I : instructions(F)) {
    for (Use &U : I.operands()) {
      auto *C = dyn_cast<Constant>(U.get());
      if (!C || !C->getType()->isFPOrFPVectorTy() ||
          !C->getType()->isVectorTy())
        continue;
      if (isa<UndefValue>(C)) { // Also poison: every lane undefined.
        U.set(Constant::getNullValue(C->getType()));
        continue;
      }
      Constant *Zero = Constant::getNullValue(C->getType()->getScalarType());
      if (Constant *Defined = Constant::replaceUndefsWith(C, Zero);
          Defined != C)
        U.set(Defined);
    }
    auto *SV = dyn_cast<ShuffleVectorInst>(&I);
    if (!SV || !SV->getType()->isFPOrFPVectorTy() ||
        !is_contained(SV->getShuffleMask(), PoisonMaskElem))
      continue;
    unsigned N =
        cast<FixedVectorType>(SV->getOperand(0)->getType())->getNumElements();
    // Lane N is lane 0 of the second operand: zero when that is a constant.
    int Filler = isa<Constant>(SV->getOperand(1)) ? int(N) : 0;
    SmallVector<int, 8> Mask(SV->getShuffleMask());
    for (int &M : Mask)
      if (M == PoisonMaskElem)
        M = Filler;
    SV->setShuffleMask(Mask);
  }
}

/// posix_memalign returns its block through an out-parameter, which hides
/// the block from the stages that give heap blocks shadows. Rewrite it into
/// what it means: `*Slot = aligned_alloc(Align, Size)`, returning 0, or
/// ENOMEM when no block came back. SROA then promotes the slot.
void rewritePosixMemalign(Function &F) {
  constexpr unsigned ENOMEMValue = 12; // Linux's ENOMEM.
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !Callee->isDeclaration() ||
        Callee->getName() != "posix_memalign" || Call->arg_size() != 3 ||
        !Call->getType()->isIntegerTy())
      continue;
    IRBuilder<> B(Call);
    Type *I64 = B.getInt64Ty(), *Ptr = Call->getArgOperand(0)->getType();
    FunctionCallee AlignedAlloc = F.getParent()->getOrInsertFunction(
        "aligned_alloc", Ptr, I64, I64);
    // aligned_alloc wants a multiple of the alignment (a power of two).
    Value *Align = B.CreateZExtOrTrunc(Call->getArgOperand(1), I64);
    Value *Size = B.CreateZExtOrTrunc(Call->getArgOperand(2), I64);
    Value *Mask = B.CreateSub(Align, B.getInt64(1));
    Size = B.CreateAnd(B.CreateAdd(Size, Mask), B.CreateNot(Mask));
    Value *Block = B.CreateCall(AlignedAlloc, {Align, Size});
    B.CreateStore(Block, Call->getArgOperand(0));
    Value *Failed = B.CreateIsNull(Block);
    Call->replaceAllUsesWith(
        B.CreateSelect(Failed, ConstantInt::get(Call->getType(), ENOMEMValue),
                       ConstantInt::get(Call->getType(), 0)));
    Call->eraseFromParent();
  }
}

/// The reverse pass reads stack slots after the primal's last use of them
/// (and a callee's reverse reads what its caller passed it), so the
/// lifetimes the markers describe no longer hold: with them, the code
/// generator could give two slots one address, and the reverse would read
/// what the later one stored.
void removeLifetimeMarkers(Function &F) {
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->isLifetimeStartOrEnd())
      II->eraseFromParent();
}

/// Calls through function pointers the clone stored itself (at -O0, a
/// std::function's invoker, or a virtual function of an object it created)
/// become direct once the loads of those pointers are known; they are
/// inlined within the same budget, and the clone canonicalized again.
/// Inlining one may expose the next (the manager that destroys a
/// std::function is loaded after the call to its invoker).
void inlineCallsThroughStoredPointers(
    Function &Clone, const Function &Original,
    function_ref<bool(const Function &)> KeepCallsTo, unsigned &Inlined,
    FunctionPassManager &FPM, FunctionAnalysisManager &FAM) {
  for (unsigned Round = 0; Round != MaxIndirectCallRounds; ++Round) {
    bool Forwarded = forwardStoredConstants(Clone, FAM);
    if (Forwarded)
      FPM.run(Clone, FAM); // Folds null checks, makes calls direct.
    if (!inlineDefinedCallees(Clone, Original, KeepCallsTo, Inlined) &&
        !Forwarded)
      return;
    dropUnwindPaths(Clone);
    FPM.run(Clone, FAM);
    FAM.clear(Clone, Clone.getName());
  }
}

FunctionPassManager buildCanonicalizationPipeline() {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(PromotePass());
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  return FPM;
}

/// For clones into which library models were inlined: the models read
/// descriptors that flang filled in on the stack, usually before a loop (it
/// computes an array expression, then passes it to the runtime). The rank
/// and type are forwarded from flang's stores (MemorySSA), tests of them
/// fold, and with them the loops over the dimensions of higher ranks, whose
/// variable indices kept the descriptors in memory: SROA can then turn the
/// descriptors into registers.
void canonicalizeDescriptors(Function &Clone, FunctionAnalysisManager &FAM) {
  FunctionPassManager FPM;
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  // What the simplification just made promotable.
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  // Each round may fold the test of a rank that kept a loop over the
  // dimensions, whose variable index kept a descriptor in memory.
  for (unsigned Round = 0; Round != MaxDescriptorRounds; ++Round) {
    FPM.run(Clone, FAM);
    FAM.clear(Clone, Clone.getName());
    if (!forwardStoredConstants(Clone, FAM, /*Descriptors=*/true))
      return;
  }
}

} // namespace

Function *cloneForDifferentiation(
    Function &F, FunctionAnalysisManager &FAM,
    function_ref<bool(const Function &)> KeepCallsTo) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + ".adjoint.primal");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  // At -O0 clang marks everything optnone, which would make the
  // canonicalization passes skip the clone.
  Clone->removeFnAttr(Attribute::OptimizeNone);
  Clone->removeFnAttr(Attribute::NoInline);
  unsigned Inlined = 0;
  inlineDefinedCallees(*Clone, F, KeepCallsTo, Inlined);
  dropUnwindPaths(*Clone);
  rewritePosixMemalign(*Clone);
  removeLifetimeMarkers(*Clone);

  // Canonicalization may make some calls through pointers direct already.
  bool CallsThroughPointers = hasIndirectCalls(*Clone);
  FunctionPassManager FPM = buildCanonicalizationPipeline();
  FPM.run(*Clone, FAM);
  FAM.clear(*Clone, Clone->getName());
  if (CallsThroughPointers)
    inlineCallsThroughStoredPointers(*Clone, F, KeepCallsTo, Inlined, FPM,
                                     FAM);
  // Once every call into a library is in sight, and before the descriptors
  // that flang passes to its runtime are mixed with models' code.
  if (substituteLibraryModels(*Clone, KeepCallsTo)) {
    inlineDefinedCallees(*Clone, F, KeepCallsTo, Inlined, /*OnlyModels=*/true);
    dropModelCallMarks(*Clone);
    canonicalizeDescriptors(*Clone, FAM);
  }
  defineVectorLanes(*Clone);
  canonicalizeLoops(*Clone, FAM);
  FAM.clear(*Clone, Clone->getName());
  return Clone;
}

} // namespace adjoint
