//===- LibraryModels.cpp - Differentiable bodies for library functions ----===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Some libraries that compiled code calls have no IR for AD to look into:
// flang lowers MATMUL, reductions and assignments to allocatable arrays to
// its runtime library. A *model* is a body for such a function, written in
// C++ (models/FortranRuntime.cpp), compiled to bitcode when Adjoint is built
// and embedded here. When a clone calls a library function that has a model,
// the call is redirected to the model (linked into the module on first use,
// internal), and the inliner then treats it like any other defined callee:
// every later stage, in both modes, sees ordinary code.
//
// The model of `f` is the function `__adjoint_model_f` of the embedded
// module: adding one is writing that function. Models of functions that
// serve several types apply only where FortranDescriptors.cpp says so.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Preprocess/Preprocess.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace adjoint {

namespace {

constexpr StringLiteral ModelPrefix = "__adjoint_model_";

const unsigned char FortranRuntimeBitcode[] = {
#include "FortranRuntimeModels.inc"
};

MemoryBufferRef modelBitcode() {
  return MemoryBufferRef(
      StringRef(reinterpret_cast<const char *>(FortranRuntimeBitcode),
                sizeof(FortranRuntimeBitcode)),
      "adjoint-library-models");
}

/// The embedded module, read into \p Ctx. Null if it cannot be read, which
/// would be a build problem: models are then simply not available.
std::unique_ptr<Module> readModels(LLVMContext &Ctx) {
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(modelBitcode(), Ctx);
  if (!M) {
    consumeError(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

/// The names of the functions that have a model, read once per process.
const StringSet<> &modeledFunctions() {
  static const StringSet<> Names = [] {
    StringSet<> Names;
    LLVMContext Ctx;
    if (std::unique_ptr<Module> M = readModels(Ctx))
      for (const Function &F : *M)
        if (!F.isDeclaration() && F.getName().starts_with(ModelPrefix))
          Names.insert(F.getName().drop_front(ModelPrefix.size()));
    return Names;
  }();
  return Names;
}

/// Marks the calls a model makes (malloc, free, the runtime's error
/// report): they call the library itself, and must stay calls even where
/// the library function has a model (a model would call itself).
constexpr StringLiteral ModelCallMD = "adjoint.model.call";

/// Prepares the calls in a linked model. flang declares the runtime
/// functions that return nothing as returning `{}`; a model's calls of them
/// are `void` calls, which would call a declaration of another type once
/// linked, an indirect call as far as AD is concerned: they get the
/// declaration's type.
void prepareModelCalls(Function &F) {
  LLVMContext &Ctx = F.getContext();
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call)
      continue;
    Call->setMetadata(ModelCallMD, MDNode::get(Ctx, {}));
    auto *Callee = dyn_cast<Function>(Call->getCalledOperand());
    if (!Callee || Callee->getFunctionType() == Call->getFunctionType() ||
        !Call->getType()->isVoidTy() ||
        Callee->getFunctionType()->params() !=
            Call->getFunctionType()->params())
      continue;
    SmallVector<Value *, 8> Args(Call->args());
    auto *New = CallInst::Create(Callee, Args, "", Call->getIterator());
    New->copyMetadata(*Call);
    New->setAttributes(Call->getAttributes());
    Call->eraseFromParent();
  }
}

/// The model of \p Callee in \p M, linked in (internal) if it is not there
/// yet; null if there is none.
Function *getOrLinkModel(Module &M, const Function &Callee) {
  if (!modeledFunctions().contains(Callee.getName()))
    return nullptr;
  std::string Name = (ModelPrefix + Callee.getName()).str();
  if (Function *Model = M.getFunction(Name); Model && !Model->isDeclaration())
    return Model;
  std::unique_ptr<Module> Models = readModels(M.getContext());
  Function *Source = Models ? Models->getFunction(Name) : nullptr;
  if (!Source)
    return nullptr;
  // The models are compiled for the host; the module decides.
  Models->setDataLayout(M.getDataLayout());
  Models->setTargetTriple(M.getTargetTriple());
  SmallPtrSet<const Function *, 32> Before;
  for (const Function &F : M)
    Before.insert(&F);
  M.getOrInsertFunction(Name, Source->getFunctionType());
  // LinkOnlyNeeded: only the definitions that M now refers to, the model
  // and the helpers it calls.
  if (Linker::linkModules(M, std::move(Models), Linker::LinkOnlyNeeded))
    return nullptr;
  for (Function &F : M) {
    if (Before.contains(&F) || F.isDeclaration())
      continue;
    F.setLinkage(GlobalValue::InternalLinkage);
    // Named so that removeUnusedLibraryModels finds the helpers too.
    if (!F.getName().starts_with(ModelPrefix))
      F.setName(ModelPrefix + "helper." + F.getName());
    // Whatever CPU the user's code is compiled for; models ask for none.
    for (StringRef Attr : {"target-cpu", "target-features", "tune-cpu"})
      F.removeFnAttr(Attr);
    prepareModelCalls(F);
  }
  Function *Model = M.getFunction(Name);
  return Model && !Model->isDeclaration() ? Model : nullptr;
}

/// Can \p Call be redirected to \p Model? The parameters must agree; flang
/// declares functions that return nothing as returning `{}`.
bool callFits(const CallBase &Call, const Function &Model) {
  FunctionType *CallType = Call.getFunctionType(),
               *ModelType = Model.getFunctionType();
  if (CallType->params() != ModelType->params() ||
      CallType->isVarArg() != ModelType->isVarArg())
    return false;
  Type *Returned = CallType->getReturnType();
  if (Returned == ModelType->getReturnType())
    return true;
  auto *ST = dyn_cast<StructType>(Returned);
  return ModelType->getReturnType()->isVoidTy() &&
         (Returned->isVoidTy() || (ST && ST->getNumElements() == 0));
}

} // namespace

CallBase *substituteLibraryModel(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !isa<CallInst>(Call) ||
      Call.hasMetadata(ModelCallMD) || !hasLibraryModel(Callee->getName()) ||
      !modelApplies(Call))
    return nullptr;
  Function *Model = getOrLinkModel(*Call.getModule(), *Callee);
  if (!Model || !callFits(Call, *Model))
    return nullptr;
  SmallVector<Value *, 8> Args(Call.args());
  auto *New = CallInst::Create(Model, Args, "", Call.getIterator());
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  if (!Call.use_empty())
    Call.replaceAllUsesWith(New->getType() == Call.getType()
                                ? static_cast<Value *>(New)
                                : Constant::getNullValue(Call.getType()));
  Call.eraseFromParent();
  return New;
}

bool substituteLibraryModels(Function &F,
                             function_ref<bool(const Function &)> KeepCallsTo) {
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && !(KeepCallsTo && KeepCallsTo(*Callee)))
      Changed |= substituteLibraryModel(*Call) != nullptr;
  }
  return Changed;
}

void dropModelCallMarks(Function &F) {
  for (Instruction &I : instructions(F))
    if (I.hasMetadata(ModelCallMD))
      I.setMetadata(ModelCallMD, nullptr);
}

bool hasLibraryModel(StringRef Name) {
  return modeledFunctions().contains(Name);
}

bool isLibraryModel(const Function &F) {
  return F.getName().starts_with(ModelPrefix);
}

void removeUnusedLibraryModels(Module &M) {
  // Erasing a model may leave the helpers it called unused.
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (Function &F : make_early_inc_range(M))
      if (isLibraryModel(F) && F.use_empty()) {
        F.eraseFromParent();
        Erased = true;
      }
  }
}

} // namespace adjoint
