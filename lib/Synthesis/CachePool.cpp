//===- CachePool.cpp - Reused memory for the reverse pass's caches ---------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pool is an array of PoolSlots block pointers in thread-local storage.
// Block sizes come from malloc_usable_size, so the pool keeps no sizes of
// its own and a block grown with realloc needs no bookkeeping. The loops
// over the slots are unrolled: the pool is used once per cache per gradient
// call, and straight-line code keeps it free of branches but two.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Synthesis/CachePool.h"
#include "Allocations.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace adjoint {

namespace {

/// How many freed caches a thread keeps: enough for the loops of a typical
/// gradient (GMM's has twelve caches live at once; with four kept, the
/// other eight went back to glibc, which trimmed the heap, and each call
/// paid page faults for them: 7x the time), few enough that scanning them
/// costs little next to filling a cache.
constexpr unsigned PoolSlots = 16;

/// Blocks smaller than this bypass the pool: glibc serves them from its
/// per-thread caches and bins without touching the kernel, and a recursion
/// that takes one tiny cache per call (the recursive FFT) would otherwise
/// scan the slots and churn the pool's large blocks on every call.
constexpr uint64_t SmallBlock = 4096;

constexpr StringLiteral PoolName = "adjoint.cache.pool";
constexpr StringLiteral RegisteredName = "adjoint.cache.pool.registered";
constexpr StringLiteral DrainName = "adjoint.cache.drain";

GlobalVariable *threadLocalGlobal(Module &M, StringRef Name, Type *Ty) {
  if (GlobalVariable *GV = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return GV;
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                GlobalValue::InternalLinkage,
                                Constant::getNullValue(Ty), Name);
  GV->setThreadLocal(true);
  return GV;
}

/// Gives the declaration \p Name, if the module calls it, an internal body
/// (an entry block to fill); null when there is nothing to define.
Function *definePoolFunction(Module &M, StringRef Name) {
  Function *F = M.getFunction(Name);
  if (!F || !F->isDeclaration())
    return nullptr;
  F->setLinkage(GlobalValue::InternalLinkage);
  F->addFnAttr(Attribute::NoInline); // Called once per cache: keep it small.
  BasicBlock::Create(M.getContext(), "entry", F);
  return F;
}

/// The pool's two entry points, declared like malloc and free (attributes
/// LLVM's alias analysis reads; names Adjoint's own stages know, for
/// higher-order derivatives of gradients that use the pool).
FunctionCallee declareTake(Module &M) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  FunctionCallee Take =
      M.getOrInsertFunction(CacheTakeName, Ptr, Type::getInt64Ty(C));
  auto *F = cast<Function>(Take.getCallee());
  if (F->hasFnAttribute(Attribute::AllocKind))
    return Take;
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->addFnAttr(Attribute::get(
      C, Attribute::AllocKind,
      uint64_t(AllocFnKind::Alloc | AllocFnKind::Uninitialized)));
  F->addFnAttr(Attribute::getWithAllocSizeArgs(C, 0, std::nullopt));
  F->addFnAttr("alloc-family", "malloc");
  F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  F->addRetAttr(Attribute::NoAlias);
  return Take;
}

FunctionCallee declareGive(Module &M) {
  LLVMContext &C = M.getContext();
  FunctionCallee Give = M.getOrInsertFunction(
      CacheGiveName, Type::getVoidTy(C), PointerType::getUnqual(C));
  auto *F = cast<Function>(Give.getCallee());
  if (F->hasFnAttribute(Attribute::AllocKind))
    return Give;
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->addFnAttr(
      Attribute::get(C, Attribute::AllocKind, uint64_t(AllocFnKind::Free)));
  F->addFnAttr("alloc-family", "malloc");
  F->setMemoryEffects(MemoryEffects::inaccessibleOrArgMemOnly());
  F->addParamAttr(0, Attribute::AllocatedPointer);
  return Give;
}

/// The usable size of a block, 0 for null (malloc_usable_size's answer).
Value *emitUsableSize(Value *Block, IRBuilderBase &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(M.getOrInsertFunction("malloc_usable_size",
                                            B.getInt64Ty(), B.getPtrTy()),
                      {Block});
}

struct PoolAccess {
  IRBuilder<> &B;
  Value *Slots;

  PoolAccess(IRBuilder<> &B, Module &M)
      : B(B), Slots(B.CreateThreadLocalAddress(threadLocalGlobal(
                  M, PoolName,
                  ArrayType::get(B.getPtrTy(), PoolSlots)))) {}

  Value *slot(Value *Index) {
    return B.CreateInBoundsGEP(ArrayType::get(B.getPtrTy(), PoolSlots), Slots,
                               {B.getInt64(0), Index});
  }
  Value *slot(unsigned Index) { return slot(B.getInt64(Index)); }

  /// Scans the slots in order for the kept block that \p Prefers (given its
  /// usable size and the size of the one chosen so far, starting from
  /// UINT64_MAX); returns its slot index, PoolSlots if none, and its size.
  std::pair<Value *, Value *>
  choose(function_ref<Value *(Value *Usable, Value *Chosen)> Prefers) {
    Value *Index = B.getInt64(PoolSlots), *Size = B.getInt64(-1);
    for (unsigned I = 0; I < PoolSlots; ++I) {
      Value *Usable = emitUsableSize(B.CreateLoad(B.getPtrTy(), slot(I)), B);
      Value *Better = Prefers(Usable, Size);
      Index = B.CreateSelect(Better, B.getInt64(I), Index);
      Size = B.CreateSelect(Better, Usable, Size);
    }
    return {Index, Size};
  }
};

/// drain(ignored): frees every kept block; runs when the thread exits.
Function *getDrain(Module &M) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  if (Function *F = M.getFunction(DrainName))
    return F;
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
      GlobalValue::InternalLinkage, DrainName, M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  PoolAccess Pool(B, M);
  for (unsigned I = 0; I < PoolSlots; ++I) {
    emitFree(B.CreateLoad(Ptr, Pool.slot(I)), B);
    B.CreateStore(Constant::getNullValue(Ptr), Pool.slot(I));
  }
  B.CreateRetVoid();
  return F;
}

/// take(size): the smallest kept block of at least size bytes, removed
/// from the pool; malloc(size) if none is large enough.
void defineTake(Module &M) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  Function *F = definePoolFunction(M, CacheTakeName);
  if (!F)
    return;
  Value *Size = F->getArg(0);
  IRBuilder<> B(&F->getEntryBlock());
  BasicBlock *Scan = BasicBlock::Create(C, "scan", F);
  BasicBlock *Allocate = BasicBlock::Create(C, "allocate"); // Last, below.
  B.CreateCondBr(B.CreateICmpULT(Size, B.getInt64(SmallBlock)), Allocate,
                 Scan);
  B.SetInsertPoint(Scan);
  PoolAccess Pool(B, M);
  Value *Best = Pool.choose([&](Value *Usable, Value *Chosen) {
                      return B.CreateAnd(B.CreateICmpUGE(Usable, Size),
                                         B.CreateICmpULT(Usable, Chosen));
                    }).first;
  BasicBlock *Reuse = BasicBlock::Create(C, "reuse", F);
  B.CreateCondBr(B.CreateICmpEQ(Best, B.getInt64(PoolSlots)), Allocate,
                 Reuse);

  B.SetInsertPoint(Reuse);
  Value *Slot = PoolAccess(B, M).slot(Best);
  Value *Block = B.CreateLoad(Ptr, Slot);
  B.CreateStore(Constant::getNullValue(Ptr), Slot);
  B.CreateRet(Block);

  Allocate->insertInto(F);
  B.SetInsertPoint(Allocate);
  B.CreateRet(emitMalloc(Size, B));
}

/// Makes the thread free its pool when it exits, the first time it keeps a
/// block (the main thread's pool is freed by exit()).
void emitDrainAtThreadExit(IRBuilder<> &B, Module &M) {
  LLVMContext &C = M.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  Value *Registered = B.CreateThreadLocalAddress(
      threadLocalGlobal(M, RegisteredName, B.getInt1Ty()));
  BasicBlock *Register = BasicBlock::Create(C, "register", F);
  BasicBlock *Keep = BasicBlock::Create(C, "keep", F);
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Registered), Keep, Register);

  B.SetInsertPoint(Register);
  B.CreateStore(B.getTrue(), Registered);
  auto *Ptr = B.getPtrTy();
  GlobalVariable *DSOHandle = M.getGlobalVariable("__dso_handle");
  if (!DSOHandle) {
    DSOHandle = new GlobalVariable(M, B.getInt8Ty(), /*isConstant=*/false,
                                   GlobalValue::ExternalLinkage, nullptr,
                                   "__dso_handle");
    DSOHandle->setVisibility(GlobalValue::HiddenVisibility);
  }
  B.CreateCall(M.getOrInsertFunction("__cxa_thread_atexit_impl",
                                     B.getInt32Ty(), Ptr, Ptr, Ptr),
               {getDrain(M), Constant::getNullValue(Ptr), DSOHandle});
  B.CreateBr(Keep);
  B.SetInsertPoint(Keep);
}

/// give(block): keeps the block in an empty slot or instead of a smaller
/// kept one (which is freed); frees it if every kept block is larger.
void defineGive(Module &M) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::getUnqual(C);
  Function *F = definePoolFunction(M, CacheGiveName);
  if (!F)
    return;
  Value *Block = F->getArg(0);
  IRBuilder<> B(&F->getEntryBlock());
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  BasicBlock *NotNull = BasicBlock::Create(C, "not.null", F);
  B.CreateCondBr(B.CreateIsNull(Block), Done, NotNull);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();

  B.SetInsertPoint(NotNull);
  Value *Size = emitUsableSize(Block, B);
  BasicBlock *Small = BasicBlock::Create(C, "small", F);
  BasicBlock *Keep = BasicBlock::Create(C, "keep", F);
  B.CreateCondBr(B.CreateICmpULT(Size, B.getInt64(SmallBlock)), Small, Keep);
  B.SetInsertPoint(Small);
  emitFree(Block, B);
  B.CreateRetVoid();

  B.SetInsertPoint(Keep);
  emitDrainAtThreadExit(B, M);
  PoolAccess Pool(B, M);
  // The smallest kept block (an empty slot counts as size 0); every size
  // is below the initial UINT64_MAX, so a slot is always chosen.
  auto [Smallest, SmallestSize] = Pool.choose(
      [&](Value *Usable, Value *Chosen) {
        return B.CreateICmpULT(Usable, Chosen);
      });
  Value *Slot = Pool.slot(Smallest);
  Value *Replace = B.CreateICmpULT(SmallestSize, Size);
  Value *Evicted = B.CreateLoad(Ptr, Slot);
  // Free whichever of the two blocks the pool does not keep (null when the
  // slot was empty).
  emitFree(B.CreateSelect(Replace, Evicted, Block), B);
  B.CreateStore(B.CreateSelect(Replace, Block, Evicted), Slot);
  B.CreateRetVoid();
}

FunctionCallee declareBlockSize(Module &M) {
  LLVMContext &C = M.getContext();
  FunctionCallee Size = M.getOrInsertFunction(
      CacheBlockSizeName, Type::getInt64Ty(C), PointerType::getUnqual(C));
  auto *F = cast<Function>(Size.getCallee());
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setMemoryEffects(MemoryEffects::inaccessibleOrArgMemOnly(ModRefInfo::Ref));
  return Size;
}

/// size(block): malloc_usable_size, which gradients do not call directly so
/// that a gradient of a gradient sees a function it knows.
void defineBlockSize(Module &M) {
  Function *F = definePoolFunction(M, CacheBlockSizeName);
  if (!F)
    return;
  IRBuilder<> B(&F->getEntryBlock());
  B.CreateRet(emitUsableSize(F->getArg(0), B));
}

} // namespace

CallInst *emitCacheAllocation(Value *Size, IRBuilderBase &B,
                              const Twine &Name) {
  return B.CreateCall(declareTake(*B.GetInsertBlock()->getModule()), {Size},
                      Name);
}

void emitCacheRelease(Value *Block, IRBuilderBase &B) {
  B.CreateCall(declareGive(*B.GetInsertBlock()->getModule()), {Block});
}

Value *emitCacheBlockSize(Value *Block, IRBuilderBase &B) {
  return B.CreateCall(declareBlockSize(*B.GetInsertBlock()->getModule()),
                      {Block});
}

void defineCachePool(Module &M) {
  defineTake(M);
  defineGive(M);
  defineBlockSize(M);
}

} // namespace adjoint
