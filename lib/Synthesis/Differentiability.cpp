//===- Differentiability.cpp - Can synthesis handle this function? ----------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Synthesis must never produce a silently wrong gradient. Everything it
// cannot differentiate is found here, before any code is emitted, and
// reported with the offending construct's source line and a remedy.
//
//===----------------------------------------------------------------------===//

#include "Differentiability.h"
#include "Allocations.h"
#include "MemoryTransfer.h"
#include "ShadowMemory.h"

#include "adjoint/Synthesis/CallDerivatives.h"
#include "adjoint/Synthesis/GradientSynthesis.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Rules/DerivativeRules.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/TypeUtils.h"

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adjoint {

namespace {

/// "the call to 'g'", or "the call through a function pointer".
std::string describeCallee(const CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction())
    return "the call to '" + demangle(Callee->getName()) + "'";
  return "the call through a function pointer";
}

class DifferentiabilityChecker {
public:
  explicit DifferentiabilityChecker(const DifferentiabilityQuery &Q)
      : F(Q.F), Activity(Q.Activity), Activities(Q.Activities),
        Types(Q.Types), Mode(Q.Mode), CallsDerivative(Q.CallsDerivative),
        IsSplit(Q.IsSplit),
        Context((Q.Mode == DiffMode::Forward ? " (in the forward derivative "
                                               "of '"
                                             : " (in the gradient of '") +
                demangle(Q.SourceName) + "' requested at " +
                describeLocation(Q.Site) + ")") {}

  bool run() {
    Returning = blocksReachingReturn(F);
    checkArguments();
    checkReturnType();
    // Forward mode follows the CFG as it is: any cycle will do.
    if (Mode == DiffMode::Reverse)
      checkLoops();
    for (const Instruction &I : instructions(F))
      checkInstruction(I);
    return Ok;
  }

private:
  void fail(const Instruction &At, const Twine &Message) {
    reportError(At, Message + Context);
    Ok = false;
  }

  /// A pointer passed enzyme_const has no shadow: derivatives must not be
  /// stored into the memory it points to.
  void checkArguments() {
    for (const Argument &A : F.args())
      if (A.getType()->isPointerTy() && Activity.isActive(&A) &&
          !hasShadow(Activities[A.getArgNo()]))
        fail(*F.getEntryBlock().getFirstNonPHIOrDbg(),
             "parameter " + Twine(A.getArgNo() + 1) +
                 " is passed enzyme_const, but values that carry "
                 "derivatives are stored into the memory it points to; pass "
                 "it enzyme_dup with a shadow");
  }

  /// The differentiated output is a floating-point return value (seeded
  /// with 1) or nothing; an aggregate of floats has no single seed. Forward
  /// mode returns its tangent, whatever its shape.
  void checkReturnType() {
    Type *RetTy = F.getReturnType();
    // A split pair's caller hands it the adjoint of the whole aggregate.
    if (!containsFloat(RetTy) || RetTy->isFPOrFPVectorTy() || IsSplit ||
        (Mode == DiffMode::Forward && isFloatAggregate(RetTy)))
      return;
    for (const BasicBlock &BB : F)
      if (isa<ReturnInst>(BB.getTerminator()))
        return fail(*BB.getTerminator(),
                    "the function returns a struct or array of floating-"
                    "point values; only a floating-point return value can "
                    "be the differentiated output (return one value, or "
                    "write results through a pointer)");
  }

  /// The reverse of a loop needs the canonical form Preprocess gives it
  /// (LoopCanonicalForm.cpp); cycles that are not natural loops (a goto into
  /// a loop's body) and loops entered through indirectbr have none.
  void checkLoops() {
    DominatorTree DT(const_cast<Function &>(F));
    LoopInfo LI(DT);
    ReversePostOrderTraversal<const Function *> RPOT(&F);
    if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI)) {
      // Report at the target of a retreating edge that is not a back edge.
      const Instruction *At = F.getEntryBlock().getTerminator();
      DenseMap<const BasicBlock *, unsigned> Order;
      for (const BasicBlock *BB : RPOT)
        Order[BB] = Order.size();
      for (const BasicBlock *BB : RPOT)
        for (const BasicBlock *Succ : successors(BB))
          if (Order.lookup(Succ) <= Order.lookup(BB) &&
              !DT.dominates(Succ, BB))
            At = Succ->getFirstNonPHIOrDbg();
      return fail(*At, "the function contains a cycle that is not a loop (a "
                       "jump into the middle of a loop, e.g. a goto); "
                       "restructure it so that every loop is entered at its "
                       "top");
    }
    for (const Loop *L : LI.getLoopsInPreorder())
      if (!L->isLoopSimplifyForm() || !getCanonicalIV(*L))
        return fail(*L->getHeader()->getFirstNonPHIOrDbg(),
                    "this loop has no single entry and latch (is it entered "
                    "through a computed goto?); it cannot be differentiated");
  }

  void checkInstruction(const Instruction &I);
  void checkStore(const StoreInst &SI);
  bool checkStoredValue(const Instruction &Store, const Value &Val,
                        const Value &Ptr);
  void checkMemTransfer(const MemTransferInst &MT);
  void checkRealloc(const CallBase &Realloc);
  void checkShadowable(const Instruction &I);
  bool carriesVariedFloatBits(const Value *V);
  bool carriesVariedPointerBits(const Value *V);
  void checkCall(const CallBase &Call);

  const Function &F;
  const ActivityInfo &Activity;
  ArrayRef<ArgActivity> Activities;
  const FunctionTypeInfo &Types;
  DiffMode Mode;
  function_ref<bool(const CallBase &)> CallsDerivative;
  bool IsSplit;
  DenseMap<const Value *, bool> BitsMemo, PointerBitsMemo;
  SmallPtrSet<const BasicBlock *, 32> Returning;
  std::string Context;
  bool Ok = true;
};

/// Is \p V an integer holding (some of) the bits of a floating-point value
/// that carries a derivative? Activity analysis does not follow derivatives
/// through integers, so such bits turned back into a float would silently
/// lose their derivative.
bool DifferentiabilityChecker::carriesVariedFloatBits(const Value *V) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !V->getType()->isIntOrIntVectorTy())
    return false;
  auto [It, Inserted] = BitsMemo.try_emplace(V, false);
  if (!Inserted)
    return It->second;
  bool Result = false;
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    Result = Activity.isVaried(LI->getPointerOperand());
  } else if (isa<BitCastInst>(I)) {
    const Value *Src = I->getOperand(0);
    Result = Src->getType()->isFPOrFPVectorTy() && Activity.isVaried(Src);
  } else if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
             isa<SelectInst>(I) || isa<ExtractElementInst>(I) ||
             isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I)) {
    Result = any_of(I->operands(), [&](const Value *Op) {
      return carriesVariedFloatBits(Op);
    });
  }
  BitsMemo[V] = Result;
  return Result;
}

/// Is \p V an integer holding (some of) the bits of a pointer into memory
/// that holds derivatives? Its shadow does not follow it through the
/// integer.
bool DifferentiabilityChecker::carriesVariedPointerBits(const Value *V) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !V->getType()->isIntOrIntVectorTy())
    return false;
  auto [It, Inserted] = PointerBitsMemo.try_emplace(V, false);
  if (!Inserted)
    return It->second;
  bool Result = false;
  if (const auto *Cast = dyn_cast<PtrToIntInst>(I)) {
    Result = Activity.isVaried(Cast->getPointerOperand());
  } else if (const auto *LI = dyn_cast<LoadInst>(I)) {
    Result = Activity.isVaried(LI->getPointerOperand()) &&
             any_of(Types.queryAccess(*LI).segments(),
                    [](const TypeSegment &S) {
                      return S.Type == ConcreteType::Pointer;
                    });
  } else if (const auto *BO = dyn_cast<BinaryOperator>(I)) {
    bool L = carriesVariedPointerBits(BO->getOperand(0));
    bool R = carriesVariedPointerBits(BO->getOperand(1));
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Or:
    case Instruction::Xor:
    case Instruction::And: // Offsets, tags and alignment masks.
      Result = L || R;
      break;
    case Instruction::Sub: // p - k still points; p - q is a distance.
      Result = L && !R;
      break;
    default: // Scaled, shifted, divided: sizes and counts, not addresses.
      break;
    }
  } else if (isa<CastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I) ||
             isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
             isa<ShuffleVectorInst>(I)) {
    Result = any_of(I->operands(), [&](const Value *Op) {
      return carriesVariedPointerBits(Op);
    });
  }
  PointerBitsMemo[V] = Result;
  return Result;
}

void DifferentiabilityChecker::checkInstruction(const Instruction &I) {
  if (isa<BitCastInst>(I) && I.getType()->isFPOrFPVectorTy() &&
      carriesVariedFloatBits(I.getOperand(0)))
    return fail(I, "the bits of a floating-point value that carries a "
                   "derivative are manipulated as an integer; this cannot "
                   "be differentiated yet (use fabs, copysign, ... instead "
                   "of bit tricks)");
  if (isa<IntToPtrInst>(I) && carriesVariedPointerBits(I.getOperand(0)))
    return fail(I, "a pointer into memory that holds derivatives goes "
                   "through an integer, which loses its shadow; this cannot "
                   "be differentiated yet (compute with the pointer "
                   "itself)");
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return checkStore(*SI);
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    if (any_of(I.operands(),
               [&](const Value *Op) { return Activity.isVaried(Op); }))
      fail(I, "atomic operations on memory that holds derivatives are not "
              "supported yet");
    return;
  }
  // Preprocess took every other unwind edge as not taken (UnwindPaths.cpp);
  // these lead to handlers that may catch, which the reverse cannot follow.
  if (const auto *Invoke = dyn_cast<InvokeInst>(&I))
    return fail(I, "the exception that " + describeCallee(*Invoke) +
                       " may throw can be caught by a 'catch' of the "
                       "function; try/catch cannot be differentiated yet "
                       "(move it out of the differentiated function)");
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    // On a path that only leads to a throw or an abort (formatting the
    // message of an exception from the inputs), nothing a call writes
    // reaches an output: the gradient is not completed there.
    if (!Returning.contains(I.getParent()) && !Activity.isActive(Call) &&
        !isa<MemTransferInst>(Call) && !isReallocation(*Call))
      return;
    return checkCall(*Call);
  }
  if (!Activity.isActive(&I))
    return;
  if (I.getType()->isPointerTy())
    return checkShadowable(I);
  if (isa<PHINode>(I))
    return; // Reversed along the CFG edges.
  if (isa<LoadInst>(I))
    return; // Its pointer is active, hence shadowable (checked there).
  if (!findRule(I) && !isDataMovement(I))
    fail(I, Twine("the '") + I.getOpcodeName() +
                "' instruction cannot be differentiated yet");
}

void DifferentiabilityChecker::checkMemTransfer(const MemTransferInst &MT) {
  StringRef Name = isa<MemMoveInst>(MT) ? "memmove" : "memcpy";
  if (!Activity.isActive(MT.getRawDest()))
    return fail(MT, Name + " copies data that carries derivatives into "
                           "memory that has no shadow; its derivatives would "
                           "be lost");
  // Forward mode copies the shadow bytes as they are, whatever they hold.
  if (Mode == DiffMode::Forward)
    return;
  std::string WhyNot;
  if (!transferLayout(MT.getRawDest(), MT.getLength(), Types, WhyNot))
    fail(MT, Name + " over memory that holds derivatives: " + WhyNot);
}

/// realloc copies the old block into the new one: its shadow needs the old
/// block's size and the layout of what it copies.
void DifferentiabilityChecker::checkRealloc(const CallBase &Realloc) {
  if (!hasKnownBlockSize(Realloc.getArgOperand(0)))
    return fail(Realloc, "realloc of a block that was not allocated in the "
                         "differentiated function is not supported yet");
  std::string WhyNot;
  if (Mode == DiffMode::Reverse && Activity.isActive(Realloc.getArgOperand(0)) &&
      !transferLayout(&Realloc, constantReallocCopySize(Realloc), Types,
                      WhyNot, /*UntouchedIfUnknown=*/true))
    fail(Realloc, "realloc of memory that holds derivatives: " + WhyNot);
}

/// Can the shadow of the active pointer \p I be computed alongside it?
void DifferentiabilityChecker::checkShadowable(const Instruction &I) {
  if (isa<AllocaInst>(I))
    return;
  if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
      isa<AddrSpaceCastInst>(I) || isa<LoadInst>(I)) {
    const Value *Base = I.getOperand(0);
    // From null (LTO's `gep double, ptr null, %n`, the end of an empty
    // std::vector): the shadow is the same offset from null.
    if (!Activity.isActive(Base) && !isOwnShadow(Base))
      fail(I, "a pointer into memory that holds derivatives is derived "
              "from " +
                  describeValue(*Base) +
                  ", which has no shadow; this is not supported yet");
    return;
  }
  if (isa<PHINode>(I) || isa<SelectInst>(I)) {
    for (const Value *Op : I.operands())
      if (Op->getType()->isPointerTy() && !Activity.isActive(Op) &&
          !isOwnShadow(Op))
        return fail(I, "a pointer that may point to memory holding "
                       "derivatives, or to " +
                           describeValue(*Op) +
                           ", which has no shadow; this is not supported "
                           "yet");
    return;
  }
  fail(I, Twine("cannot compute the shadow of a pointer produced by '") +
              I.getOpcodeName() + "'; this is not supported yet");
}

void DifferentiabilityChecker::checkStore(const StoreInst &SI) {
  const Value *Val = SI.getValueOperand(), *Ptr = SI.getPointerOperand();
  // Pointers loaded back from memory whose pointers have shadows get their
  // shadow from the shadow memory; this one would leave a null there.
  if (Val->getType()->isPointerTy() && Activity.isActive(Ptr) &&
      !Activity.isActive(Val) && !isOwnShadow(Val))
    return fail(SI, "a pointer without a shadow (" + describeValue(*Val) +
                        ") is stored into memory that holds pointers with "
                        "shadows; this is not supported yet (pass it "
                        "enzyme_dup)");
  if (!checkStoredValue(SI, *Val, *Ptr))
    return;
  // A pointer stored as an integer leaves its shadow behind: a pointer
  // loaded back from there would find none.
  if (Activity.isVaried(Ptr) && carriesVariedPointerBits(Val))
    return fail(SI, "a pointer into memory that holds derivatives is stored "
                    "as an integer, which loses its shadow; this cannot be "
                    "differentiated yet (store the pointer itself)");
  // Bytes copied through an integer may be the bits of a float that
  // carries a derivative; unless the type analysis knows they are integers
  // (an int field), the copy would drop it.
  if (Activity.isVaried(SI.getPointerOperand()) &&
      carriesVariedFloatBits(SI.getValueOperand()) &&
      !Types.queryAccess(SI).isNonFloat())
    fail(SI, "memory that may hold derivatives is copied through integer "
             "loads and stores; this cannot be differentiated yet");
}

/// A value carrying a derivative must be stored where a shadow can take
/// its derivative. Returns false after reporting if not.
bool DifferentiabilityChecker::checkStoredValue(const Instruction &Store,
                                                const Value &Val,
                                                const Value &Ptr) {
  if (!Activity.isVaried(&Val) || !containsFloat(Val.getType()) ||
      Activity.isActive(&Ptr))
    return true;
  const Value *Object = getUnderlyingObject(&Ptr);
  fail(Store, "storing a value that carries a derivative into " +
                  (isa<GlobalVariable>(Object)
                       ? "global variable " + describeValue(*Object)
                       : std::string("memory that has no shadow")) +
                  " is not supported: its derivative would be lost; "
                  "write it through an enzyme_dup pointer instead");
  return false;
}

/// Functions that only print or report what they are given: a derivative
/// that reaches them goes nowhere. flang's PRINT and WRITE pass each item
/// to one of the Fortran runtime's _FortranAioOutput* functions.
bool isKnownOutputOnly(StringRef Name) {
  if (Name.starts_with("_FortranAioOutput"))
    return true;
  return StringSwitch<bool>(Name)
      .Cases("printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", true)
      .Cases("putchar", "fputc", "fwrite", "fflush", "perror", true)
      .Default(false);
}

/// Which Fortran operation a function of flang's runtime implements, by
/// the start of its name after `_FortranA` (MatmulReal8Real8, SumDim,
/// CshiftVector, ...), for messages.
constexpr std::pair<StringLiteral, StringLiteral> FortranRuntimeOperations[] = {
    {"Matmul", "MATMUL"},
    {"DotProduct", "DOT_PRODUCT"},
    {"Sum", "SUM"},
    {"Product", "PRODUCT"},
    {"Maxval", "MAXVAL"},
    {"Minval", "MINVAL"},
    {"Maxloc", "MAXLOC"},
    {"Minloc", "MINLOC"},
    {"Findloc", "FINDLOC"},
    {"Norm2", "NORM2"},
    {"Cshift", "CSHIFT"},
    {"Eoshift", "EOSHIFT"},
    {"Spread", "SPREAD"},
    {"Reshape", "RESHAPE"},
    {"Transpose", "TRANSPOSE"},
    {"Pack", "PACK"},
    {"Unpack", "UNPACK"},
    {"Assign", "an array assignment"},
    {"CopyIn", "a copy-in"},
    {"CopyOut", "a copy-out"},
    {"Allocatable", "ALLOCATE"},
    {"Pointer", "a pointer operation"},
    {"io", "I/O"},
};

/// The message for a call into flang's runtime (`_FortranA...`) that AD
/// cannot differentiate: the runtime is native code without IR, and
/// Adjoint models only some of it (Preprocess/models/FortranRuntime.cpp).
std::optional<std::string> fortranRuntimeMessage(const Function *Callee) {
  StringRef Name = Callee ? Callee->getName() : StringRef();
  if (!Name.consume_front("_FortranA"))
    return std::nullopt;
  std::string Operation;
  for (const auto &[Prefix, Fortran] : FortranRuntimeOperations)
    if (Name.starts_with(Prefix)) {
      Operation = (" (" + Fortran + ")").str();
      break;
    }
  return "'" + Callee->getName().str() + "'" + Operation +
         " is a function of the Fortran runtime that Adjoint cannot "
         "differentiate through yet; write the operation with loops or "
         "array expressions in the differentiated code, or keep the data it "
         "reads out of the derivative (enzyme_const)";
}

void DifferentiabilityChecker::checkCall(const CallBase &Call) {
  bool ActiveResult = Activity.isActive(&Call);
  bool VariedInput = any_of(Call.args(), [&](const Use &Arg) {
    return Activity.isVaried(Arg.get());
  });
  if (!ActiveResult && !VariedInput)
    return;
  // lifetime markers, assumptions, ...: no data flows through them.
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call);
      II && II->isAssumeLikeIntrinsic())
    return;
  // Setting memory only consumes its shadow (in the reverse), which needs
  // no knowledge of what the bytes hold.
  if (isa<MemSetInst>(Call))
    return;
  // Heap blocks get shadow blocks; freeing one is not a data flow.
  if (isAllocation(Call) || isDeallocation(Call))
    return;
  // The vectorizers' conditional loads and stores: reversed lane by lane
  // like loads and stores.
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      return;
    if (II->getIntrinsicID() == Intrinsic::masked_store) {
      checkStoredValue(Call, *II->getArgOperand(0), *II->getArgOperand(1));
      return;
    }
  }
  if (isReallocation(Call))
    return checkRealloc(Call);
  if (Call.isInlineAsm())
    return fail(Call, "inline assembly cannot be differentiated; compute "
                      "this value in C, or pass its inputs as enzyme_const");
  if (findRule(Call))
    return;
  // Differentiated through the callee's own derivative functions.
  if (CallsDerivative && CallsDerivative(Call))
    return;
  const Function *Callee = Call.getCalledFunction();
  if (!ActiveResult) {
    // The result carries no derivative; one could only escape through
    // memory the callee writes.
    if (Call.onlyReadsMemory() ||
        (Callee && isKnownOutputOnly(Callee->getName())))
      return;
    if (const auto *MT = dyn_cast<MemTransferInst>(&Call))
      return checkMemTransfer(*MT);
    if (std::optional<std::string> Message = fortranRuntimeMessage(Callee))
      return fail(Call, *Message);
    return fail(Call, "call to " +
                          (Callee ? "'" + demangle(Callee->getName()) + "'"
                                  : std::string("a function pointer")) +
                          " receives a value that carries a derivative and "
                          "may write results derived from it to memory; "
                          "this cannot be differentiated yet");
  }
  if (!Callee)
    return fail(Call, "indirect calls cannot be differentiated yet");
  if (Call.getType()->isPointerTy())
    return fail(Call, "the pointer returned by '" +
                          demangle(Callee->getName()) +
                          "' would need a shadow, which is not supported yet");
  if (Callee->isIntrinsic())
    return fail(Call, "the intrinsic '" + Callee->getName() +
                          "' has no derivative rule yet");
  if (std::optional<std::string> Message = fortranRuntimeMessage(Callee))
    return fail(Call, *Message);
  if (Callee->isDeclaration())
    return fail(Call, "call to external function '" +
                          demangle(Callee->getName()) +
                          "', which has no body and no derivative rule: "
                          "define it in the same file (or, with link-time "
                          "AD, in a file compiled with -flto), or mark the "
                          "inputs it depends on enzyme_const");
  if (Callee->isVarArg())
    return fail(Call, "call to variadic function '" +
                          demangle(Callee->getName()) +
                          "' cannot be differentiated");
  fail(Call, "call to '" + demangle(Callee->getName()) +
                 "' cannot be differentiated yet: it is recursive or too "
                 "large to inline, and calls that remain after inlining are "
                 "not supported yet");
}

} // namespace

bool checkDifferentiable(const DifferentiabilityQuery &Q) {
  return DifferentiabilityChecker(Q).run();
}

bool checkDifferentiable(const GradientRequest &R) {
  auto KeptCall = [&](const CallBase &Call) {
    return isDifferentiatedAsCall(Call, R.Calls);
  };
  return checkDifferentiable(DifferentiabilityQuery{
      R.Primal, R.Activities, R.Activity, R.Types, R.SourceName, R.Site,
      DiffMode::Reverse, KeptCall, R.Split != nullptr});
}

} // namespace adjoint
