//===- AutodiffRequest.cpp - Parse __enzyme_autodiff calls ------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Frontend/AutodiffRequest.h"
#include "CallDispatch.h"
#include "adjoint/Support/Diagnostics.h"
#include "adjoint/Support/LinkTime.h"
#include "adjoint/Support/TypeUtils.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The entry points Adjoint implements, recognised by the name their
/// declarations contain. Another one is a line here plus its DiffMode.
struct EntryPoint {
  StringLiteral Name;
  DiffMode Mode;
};
constexpr EntryPoint ImplementedEntryPoints[] = {
    {AutodiffPrefix, DiffMode::Reverse},
    {"__enzyme_fwddiff", DiffMode::Forward},
    {"__enzyme_augmentfwd", DiffMode::AugmentedForward},
    {"__enzyme_reverse", DiffMode::ReverseFromTape},
    {"__enzyme_augmentsize", DiffMode::TapeSize},
};

} // namespace

StringRef entryPointName(DiffMode M) {
  for (const EntryPoint &E : ImplementedEntryPoints)
    if (E.Mode == M)
      return E.Name;
  llvm_unreachable("every mode has an entry point");
}

StringRef activityName(ArgActivity A) {
  switch (A) {
  case ArgActivity::Const:
    return "enzyme_const";
  case ArgActivity::Dup:
    return "enzyme_dup";
  case ArgActivity::DupNoNeed:
    return "enzyme_dupnoneed";
  case ArgActivity::Out:
    return "enzyme_out";
  }
  llvm_unreachable("unknown activity");
}

SmallVector<ArgActivity, 8> AutodiffRequest::activities() const {
  SmallVector<ArgActivity, 8> Result;
  for (const RequestArg &A : Args)
    Result.push_back(A.Activity);
  return Result;
}

/// Split mode's markers, which say where the tape is rather than an
/// argument's activity.
static bool isTapeMarker(StringRef Name) {
  return Name == "enzyme_tape" || Name == "enzyme_allocated";
}

/// Why \p Fn, only declared in \p M, has no body to differentiate, and
/// what to do: where it could be defined depends on which kind of LTO
/// module \p M is.
static std::string missingBodyMessage(const Function &Fn, const Module &M) {
  std::string Name = demangle(Fn.getName());
  switch (getLTOKind(M)) {
  case LTOKind::Full:
    // Full-LTO modules are differentiated only at link time (see the
    // plugin), when every bitcode file of the program is in M.
    return "cannot differentiate '" + Name +
           "': no bitcode file linked into the program defines it; compile "
           "the file that defines it with -flto and link it (objects and "
           "libraries compiled without -flto cannot be differentiated)";
  case LTOKind::Thin:
    return "cannot differentiate '" + Name +
           "': its body is not in this ThinLTO module; ThinLTO (-flto=thin) "
           "differentiates each file on its own: define it in the same "
           "file, or build with full LTO (-flto) and load the plugin into "
           "the linker";
  case LTOKind::None:
    break;
  }
  return "cannot differentiate '" + Name +
         "': its body is not in this translation unit; define it in the "
         "same file, or compile with -flto and load the plugin into the "
         "linker (-Wl,--load-pass-plugin=Adjoint.so) to differentiate "
         "across files";
}

std::optional<ArgActivity> markerActivity(StringRef Name) {
  return StringSwitch<std::optional<ArgActivity>>(Name)
      .Case("enzyme_dup", ArgActivity::Dup)
      .Case("enzyme_dupnoneed", ArgActivity::DupNoNeed)
      .Case("enzyme_const", ArgActivity::Const)
      .Case("enzyme_out", ArgActivity::Out)
      .Default(std::nullopt);
}

namespace {

/// The only store into the local slot \p Slot, if every other use of it
/// only reads (loads, or zero-offset casts and GEPs that only reach loads).
StoreInst *onlyStoreInto(const AllocaInst &Slot) {
  StoreInst *OnlyStore = nullptr;
  SmallVector<const Value *, 4> Worklist = {&Slot};
  while (!Worklist.empty()) {
    const Value *P = Worklist.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<LoadInst>(U) || U->isDroppable())
        continue;
      // Fortran's type(c_funptr) is a struct: its field is reached through
      // a GEP of zeros.
      if (isa<BitCastInst, GetElementPtrInst>(U) &&
          U->stripPointerCasts() == &Slot) {
        Worklist.push_back(U);
        continue;
      }
      auto *Store = dyn_cast<StoreInst>(U);
      if (!Store || Store->getPointerOperand() != P || OnlyStore)
        return nullptr; // Escapes, or written more than once.
      OnlyStore = const_cast<StoreInst *>(Store);
    }
  }
  return OnlyStore;
}

/// At -O0 values reach the call through stack slots: `void *fp = f;` or the
/// parameters of an inlined helper. Follows a load from a local slot that is
/// stored exactly once back to the stored value. Fortran's c_funloc(f) is a
/// type(c_funptr), which holds the address as an integer: it is stored as
/// a ptrtoint and comes back through an inttoptr, both looked through.
Value *lookThroughLocalCopies(Value *V) {
  for (unsigned Depth = 0; Depth != 8; ++Depth) {
    V = V->stripPointerCasts();
    if (auto *Cast = dyn_cast<IntToPtrInst>(V))
      V = Cast->getOperand(0);
    if (auto *Cast = dyn_cast<PtrToIntOperator>(V)) {
      V = Cast->getPointerOperand();
      continue;
    }
    auto *Load = dyn_cast<LoadInst>(V);
    auto *Slot = Load ? dyn_cast<AllocaInst>(
                            Load->getPointerOperand()->stripPointerCasts())
                      : nullptr;
    if (!Slot || Load->isVolatile())
      return V;
    StoreInst *OnlyStore = onlyStoreInto(*Slot);
    if (!OnlyStore)
      return V;
    V = OnlyStore->getValueOperand();
  }
  return V;
}

std::string plural(unsigned N, StringRef Word) {
  return std::to_string(N) + " " + Word.str() + (N == 1 ? "" : "s");
}

/// The marker global an argument refers to, if it is one: the value loaded
/// from it (the usual `enzyme_const` in C) or its address.
const GlobalVariable *markerGlobal(Value *Arg) {
  Arg = lookThroughLocalCopies(Arg);
  if (auto *LI = dyn_cast<LoadInst>(Arg))
    Arg = LI->getPointerOperand();
  if (auto *PI = dyn_cast<PtrToIntOperator>(Arg))
    Arg = PI->getPointerOperand();
  const auto *GV = dyn_cast<GlobalVariable>(Arg->stripPointerCasts());
  if (GV && GV->getName().starts_with("enzyme_"))
    return GV;
  return nullptr;
}


/// In forward mode a floating-point value is duplicated by value: its
/// tangent follows it.
ArgActivity defaultActivity(const Type *ParamTy, DiffMode Mode) {
  if (isFloatAggregate(ParamTy))
    return Mode == DiffMode::Forward ? ArgActivity::Dup : ArgActivity::Out;
  if (ParamTy->isPointerTy())
    return ArgActivity::Dup;
  return ArgActivity::Const;
}

/// Walks the call's arguments once, turning them into per-parameter entries.
class CallParser {
public:
  CallParser(CallBase &Call, DiffMode Mode)
      : Call(Call), Builder(&Call), Mode(Mode),
        EntryName(entryPointName(Mode)) {}

  std::optional<AutodiffRequest> parse();

private:
  bool fail(const Twine &Message) {
    reportError(Call, Message);
    return false;
  }
  bool parseParameter(unsigned Index, AutodiffRequest &R);
  bool parseTapeMarkers(AutodiffRequest &R);
  bool parseReverseTrailer(AutodiffRequest &R);
  bool checkActivity(unsigned Index, ArgActivity A, Type *ParamTy);
  Value *convert(Value *V, Type *To, unsigned ParamIndex, StringRef What);
  std::string paramName(unsigned Index) const {
    return "parameter " + std::to_string(Index + 1) + " of '" +
           demangle(Fn->getName()) + "'";
  }

  CallBase &Call;
  IRBuilder<> Builder;
  DiffMode Mode;
  StringRef EntryName; ///< For messages.
  Function *Fn = nullptr;
  unsigned Next = 0; ///< The next call argument to consume.
};

std::optional<AutodiffRequest> CallParser::parse() {
  // With a large struct return the ABI passes the result buffer first.
  if (returnsThroughBuffer(Call))
    Next = 1;
  if (Next >= Call.arg_size()) {
    fail(EntryName + " needs the function to differentiate as its first "
         "argument");
    return std::nullopt;
  }
  Value *Callee = lookThroughLocalCopies(Call.getArgOperand(Next++));
  if (auto *GA = dyn_cast<GlobalAlias>(Callee))
    Callee = GA->getAliaseeObject();
  Fn = dyn_cast_or_null<Function>(Callee);
  if (!Fn) {
    fail("the first argument of " + EntryName +
         " must be a function known at compile time, e.g. (void *)f");
    return std::nullopt;
  }
  if (Fn->isDeclaration()) {
    fail(missingBodyMessage(*Fn, *Call.getModule()));
    return std::nullopt;
  }
  if (Fn->isVarArg()) {
    fail("cannot differentiate variadic function '" +
         demangle(Fn->getName()) + "'");
    return std::nullopt;
  }

  AutodiffRequest R;
  R.Call = &Call;
  R.Mode = Mode;
  R.Fn = Fn;
  // The size of a tape does not depend on the markers that may follow.
  if (Mode == DiffMode::TapeSize)
    return R;
  if ((Mode == DiffMode::AugmentedForward ||
       Mode == DiffMode::ReverseFromTape) &&
      !parseTapeMarkers(R))
    return std::nullopt;
  for (unsigned I = 0, E = Fn->arg_size(); I != E; ++I)
    if (!parseParameter(I, R))
      return std::nullopt;
  if (Mode == DiffMode::ReverseFromTape && !parseReverseTrailer(R))
    return std::nullopt;
  if (Next != Call.arg_size()) {
    fail("too many arguments to " + EntryName + ": '" +
         demangle(Fn->getName()) +
         "' takes " + plural(Fn->arg_size(), "parameter"));
    return std::nullopt;
  }
  return R;
}

/// Split mode's leading `enzyme_allocated, size` (the size the caller
/// allocated for the tape, which must hold a pointer) and
/// `enzyme_tape, buffer` (where the tape is kept instead of being returned
/// or passed).
bool CallParser::parseTapeMarkers(AutodiffRequest &R) {
  while (Next + 1 < Call.arg_size()) {
    const GlobalVariable *Marker = markerGlobal(Call.getArgOperand(Next));
    if (!Marker || (Marker->getName() != "enzyme_tape" &&
                    Marker->getName() != "enzyme_allocated"))
      return true;
    Value *V = Call.getArgOperand(Next + 1);
    Next += 2;
    if (Marker->getName() == "enzyme_allocated") {
      auto *Size = dyn_cast<ConstantInt>(V);
      if (Size && Size->getZExtValue() < 8)
        return fail("the tape buffer given by enzyme_allocated has " +
                    Twine(Size->getZExtValue()) +
                    " bytes; Adjoint's tapes need 8 (a pointer): use " +
                    "__enzyme_augmentsize");
      continue;
    }
    if (!V->getType()->isPointerTy())
      return fail("enzyme_tape must be followed by a pointer to the tape "
                  "buffer");
    R.TapeBuffer = V;
  }
  return true;
}

/// __enzyme_reverse's arguments after fn's: the adjoint of fn's
/// floating-point result, then the tape (unless enzyme_tape gave its
/// buffer).
bool CallParser::parseReverseTrailer(AutodiffRequest &R) {
  Type *RetTy = Fn->getReturnType();
  if (isFloatAggregate(RetTy)) {
    if (Next >= Call.arg_size())
      return fail("too few arguments to " + EntryName + ": missing the "
                  "adjoint of the result of '" + demangle(Fn->getName()) +
                  "' after its arguments");
    R.ReturnAdjoint = Call.getArgOperand(Next++);
    if (R.ReturnAdjoint->getType() != RetTy) {
      if (!R.ReturnAdjoint->getType()->isFloatingPointTy() ||
          !RetTy->isFloatingPointTy())
        return fail("the adjoint of the result of '" +
                    demangle(Fn->getName()) + "' has type " +
                    describeType(R.ReturnAdjoint->getType()) +
                    " but the result has type " + describeType(RetTy));
      R.ReturnAdjoint = Builder.CreateFPCast(R.ReturnAdjoint, RetTy);
    }
  }
  if (R.TapeBuffer)
    return true;
  if (Next >= Call.arg_size() ||
      !Call.getArgOperand(Next)->getType()->isPointerTy())
    return fail(EntryName + " needs the tape that __enzyme_augmentfwd "
                "returned as its last argument");
  R.TapeOperand = Next++;
  return true;
}

bool CallParser::parseParameter(unsigned Index, AutodiffRequest &R) {
  Type *ParamTy = Fn->getArg(Index)->getType();
  auto TooFew = [&] {
    return fail("too few arguments to " + EntryName + ": missing a value for " +
                paramName(Index) + " ('" + demangle(Fn->getName()) +
                "' takes " +
                plural(Fn->arg_size(), "parameter") + ")");
  };
  if (Next >= Call.arg_size())
    return TooFew();

  if (Fn->getArg(Index)->hasByValAttr())
    return fail(paramName(Index) + " is a struct passed by value, which is "
                "not supported yet; pass a pointer to it instead");

  RequestArg Arg;
  Arg.Activity = defaultActivity(ParamTy, Mode);
  bool Explicit = false;
  if (const GlobalVariable *Marker = markerGlobal(Call.getArgOperand(Next))) {
    std::optional<ArgActivity> A = markerActivity(Marker->getName());
    if (!A)
      return fail("unsupported activity marker '" + Marker->getName() +
                  "'; use enzyme_dup, enzyme_dupnoneed, enzyme_const or "
                  "enzyme_out");
    Arg.Activity = *A;
    Explicit = true;
    if (++Next >= Call.arg_size())
      return TooFew();
    if (const GlobalVariable *Second = markerGlobal(Call.getArgOperand(Next)))
      return fail("two activity markers in a row ('" + Marker->getName() +
                  "', '" + Second->getName() + "') before the value for " +
                  paramName(Index));
  }

  if (!checkActivity(Index, Arg.Activity, ParamTy))
    return false;

  Arg.Primal = convert(Call.getArgOperand(Next++), ParamTy, Index, "value");
  if (!Arg.Primal)
    return false;
  if (hasShadow(Arg.Activity)) {
    // A floating-point value passed by value is followed by its tangent
    // (forward mode only); a pointer by its shadow.
    StringRef Shadow = ParamTy->isPointerTy() ? "shadow" : "tangent";
    if (Next >= Call.arg_size() || markerGlobal(Call.getArgOperand(Next))) {
      if (!Explicit && ParamTy->isPointerTy())
        return fail("missing shadow for " + paramName(Index) +
                    ": a pointer without a marker is enzyme_dup and is "
                    "followed by its shadow; pass one, or mark the pointer "
                    "enzyme_const");
      if (!Explicit)
        return fail("missing tangent for " + paramName(Index) +
                    ": in forward mode a floating-point value without a "
                    "marker is enzyme_dup and is followed by its tangent; "
                    "pass one, or mark the value enzyme_const");
      return fail("missing " + Shadow + " after " +
                  activityName(Arg.Activity) + " for " + paramName(Index));
    }
    Arg.Shadow = convert(Call.getArgOperand(Next++), ParamTy, Index, Shadow);
    if (!Arg.Shadow)
      return false;
    // Adjoints accumulated into the primal's own memory would corrupt both.
    if (ParamTy->isPointerTy() && lookThroughLocalCopies(Arg.Shadow) ==
                                      lookThroughLocalCopies(Arg.Primal))
      return fail("the shadow passed for " + paramName(Index) +
                  " is the same pointer as its value; pass a separate, "
                  "zero-initialized shadow buffer");
  }
  R.Args.push_back(Arg);
  return true;
}

/// Can parameter \p Index, of type \p ParamTy, take activity \p A in this
/// mode? Reports why not.
bool CallParser::checkActivity(unsigned Index, ArgActivity A, Type *ParamTy) {
  bool IsFloat = isFloatAggregate(ParamTy);
  if (A == ArgActivity::Out && Mode == DiffMode::Forward)
    return fail("enzyme_out on " + paramName(Index) + ": forward mode (" +
                EntryName + ") returns no gradients; use enzyme_dup followed "
                "by the tangent of the value" +
                (ParamTy->isPointerTy() ? " (a shadow pointer)" : ""));
  if (A == ArgActivity::Out && !IsFloat)
    return fail("enzyme_out on " + paramName(Index) + " of type " +
                describeType(ParamTy) + ": only floating-point values passed by "
                "value can be enzyme_out" +
                (ParamTy->isPointerTy() ? "; use enzyme_dup with a shadow"
                                        : "; use enzyme_const"));
  if (!hasShadow(A) || ParamTy->isPointerTy())
    return true;
  if (Mode == DiffMode::Forward) {
    if (IsFloat)
      return true;
    return fail(activityName(A) + " on " + paramName(Index) + " of type " +
                describeType(ParamTy) + ": only pointers and floating-point "
                "values have shadows or tangents; use enzyme_const");
  }
  return fail(activityName(A) + " on " + paramName(Index) + " of type " +
              describeType(ParamTy) + ": only pointers have shadows" +
              (IsFloat ? "; use enzyme_out" : "; use enzyme_const"));
}

/// Undoes C's default argument promotions (float to double, small integers
/// to int) so that each value has the type of the parameter it binds to.
Value *CallParser::convert(Value *V, Type *To, unsigned ParamIndex,
                           StringRef What) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return Builder.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return Builder.CreateIntCast(V, To, /*isSigned=*/true);
  if (From->isPointerTy() && To->isPointerTy())
    return Builder.CreatePointerBitCastOrAddrSpaceCast(V, To);
  fail("the " + What + " passed for " + paramName(ParamIndex) + " has type " +
       describeType(From) + " but the parameter has type " + describeType(To));
  return nullptr;
}

/// The Enzyme entry point \p Call calls, directly or through a local copy.
/// C++ code may declare the entry points as templates, whose mangled names
/// contain the C name (`_Z17__enzyme_autodiffIdJ...`); a function with a
/// body is the user's own, whatever its name.
bool isEntryPoint(const Function &F, StringRef Prefix) {
  return F.isDeclaration() && F.getName().contains(Prefix);
}

Function *calledEntryPoint(CallBase &Call) {
  auto *F = dyn_cast<Function>(lookThroughLocalCopies(Call.getCalledOperand()));
  return F && isEntryPoint(*F, EnzymePrefix) ? F : nullptr;
}

/// The mode \p Entry (an entry point) asks for, if Adjoint implements it.
std::optional<DiffMode> implementedMode(const Function &Entry) {
  for (const EntryPoint &E : ImplementedEntryPoints)
    if (isEntryPoint(Entry, E.Name))
      return E.Mode;
  return std::nullopt;
}

} // namespace

SmallVector<CallBase *, 8> collectAutodiffCalls(Module &M) {
  SmallVector<CallBase *, 8> Found;
  SmallVector<CallBase *, 8> Unsupported;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        Function *Entry = Call ? calledEntryPoint(*Call) : nullptr;
        if (!Entry)
          continue;
        (implementedMode(*Entry) ? Found : Unsupported).push_back(Call);
      }
  // Once the blocks are no longer being walked: dispatching splits them.
  SmallVector<CallBase *, 8> Calls;
  for (CallBase *Call : Found)
    append_range(Calls, dispatchOnFunction(*Call));
  for (CallBase *Call : Unsupported) {
    reportError(*Call, "'" + demangle(calledEntryPoint(*Call)->getName()) +
                           "' is not supported yet; Adjoint implements "
                           "reverse mode through __enzyme_autodiff (split: "
                           "__enzyme_augmentfwd, __enzyme_reverse, "
                           "__enzyme_augmentsize) and forward mode through "
                           "__enzyme_fwddiff");
    discardAutodiffCall(*Call);
  }
  return Calls;
}

DenseMap<const Function *, const GlobalVariable *>
collectCustomDerivatives(const Module &M, StringRef Prefix) {
  DenseMap<const Function *, const GlobalVariable *> Result;
  for (const GlobalVariable &GV : M.globals()) {
    if ((!GV.getName().starts_with("__enzyme_register_gradient") &&
         !GV.getName().starts_with("__enzyme_register_derivative")) ||
        !GV.getName().starts_with(Prefix))
      continue;
    const auto *Init =
        GV.hasInitializer() ? dyn_cast<ConstantArray>(GV.getInitializer())
                            : nullptr;
    if (Init && Init->getNumOperands() > 0)
      if (const auto *F =
              dyn_cast<Function>(Init->getOperand(0)->stripPointerCasts()))
        Result[F] = &GV;
  }
  return Result;
}

/// Erases `store @entry, %slot` when every load of the local slot is dead
/// (the calls through it were replaced), so no reference to the entry point
/// is left for the linker.
static void eraseDeadLocalCopies(Function &Entry) {
  for (User *U : make_early_inc_range(Entry.users())) {
    auto *Store = dyn_cast<StoreInst>(U);
    auto *Slot = Store ? dyn_cast<AllocaInst>(Store->getPointerOperand())
                       : nullptr;
    if (!Slot || Store->getValueOperand() != &Entry)
      continue;
    bool AllDead = all_of(Slot->users(), [](User *SU) {
      return isa<StoreInst>(SU) || (isa<LoadInst>(SU) && SU->use_empty());
    });
    if (!AllDead)
      continue;
    for (User *SU : make_early_inc_range(Slot->users()))
      cast<Instruction>(SU)->eraseFromParent();
    Slot->eraseFromParent();
  }
}

void removeUnusedEntryPoints(Module &M) {
  for (Function &F : make_early_inc_range(M)) {
    if (!isEntryPoint(F, EnzymePrefix))
      continue;
    eraseDeadLocalCopies(F);
    if (F.use_empty())
      F.eraseFromParent();
  }
}

bool returnsThroughBuffer(const CallBase &Call) {
  return Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet);
}

std::optional<AutodiffRequest> parseAutodiffCall(CallBase &Call) {
  Function *Entry = calledEntryPoint(Call);
  std::optional<DiffMode> Mode = Entry ? implementedMode(*Entry) : std::nullopt;
  return CallParser(Call, Mode.value_or(DiffMode::Reverse)).parse();
}

void finalizeMarkerGlobals(Module &M) {
  for (GlobalVariable &GV : make_early_inc_range(M.globals())) {
    if (!markerActivity(GV.getName()) && !isTapeMarker(GV.getName()))
      continue;
    // Loads, casts and ptrtoints of the marker that fed replaced calls.
    for (User *U : make_early_inc_range(GV.users()))
      if (auto *I = dyn_cast<Instruction>(U); I && I->use_empty() &&
                                               !I->mayHaveSideEffects())
        I->eraseFromParent();
    GV.removeDeadConstantUsers();
    if (GV.use_empty() && GV.isDeclaration()) {
      GV.eraseFromParent();
      continue;
    }
    if (!GV.isDeclaration() || !GV.getValueType()->isIntegerTy())
      continue;
    // Still referenced (e.g. a marker passed to code we did not rewrite):
    // define it so the program links. Distinct values keep them apart.
    std::optional<ArgActivity> Activity = markerActivity(GV.getName());
    unsigned Value = Activity ? static_cast<unsigned>(*Activity) + 1
                              : (GV.getName() == "enzyme_tape" ? 10 : 11);
    GV.setInitializer(ConstantInt::get(GV.getValueType(), Value));
    GV.setLinkage(GlobalValue::WeakAnyLinkage);
  }
}

} // namespace adjoint
