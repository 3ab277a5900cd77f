//===- KnownFunctions.cpp - Types stated by TBAA and libraries --------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KnownFunctions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace adjoint {

namespace {

/// The name of a TBAA type node, in either format: the old scalar format
/// !{!"double", !parent, i64 0} or the new one !{!parent, i64 8, !"double"}.
StringRef typeNodeName(const MDNode *Node) {
  if (!Node || Node->getNumOperands() == 0)
    return StringRef();
  if (const auto *S = dyn_cast<MDString>(Node->getOperand(0)))
    return S->getString();
  if (Node->getNumOperands() > 2)
    if (const auto *S = dyn_cast<MDString>(Node->getOperand(2)))
      return S->getString();
  return StringRef();
}

/// The access type of a tag: struct-path tags are !{base, access, offset},
/// old scalar tags are the type node itself.
const MDNode *accessTypeNode(const MDNode *Tag) {
  if (Tag->getNumOperands() >= 3 && isa<MDNode>(Tag->getOperand(0)) &&
      isa<MDNode>(Tag->getOperand(1)))
    return cast<MDNode>(Tag->getOperand(1));
  return Tag;
}

/// One line per function; the f and l variants of the libm entries (frexpf,
/// frexpl) share the base function's line, see knownSignature.
struct Signature {
  const char *Name;
  const char *Tokens;
  bool HasFloatVariants;
};

constexpr Signature Signatures[] = {
    // Allocation: sizes are integers, results are pointers.
    {"malloc", "p i", false},
    {"calloc", "p i i", false},
    {"realloc", "=a p i", false},
    {"reallocf", "=a p i", false},
    {"aligned_alloc", "p i i", false},
    {"memalign", "p i i", false},
    {"valloc", "p i", false},
    {"pvalloc", "p i", false},
    {"posix_memalign", "i *p i i", false},
    {"free", ". p", false},
    // The pool of a gradient's caches (Synthesis/CachePool.h), seen when a
    // gradient is differentiated again.
    {"adjoint.cache.take", "p i", false},
    {"adjoint.cache.give", ". p", false},
    {"adjoint.cache.size", "i p", false},
    {"_Znwm", "p i", false},
    {"_Znam", "p i", false},
    {"_ZnwmSt11align_val_t", "p i i", false},
    {"_ZnamSt11align_val_t", "p i i", false},
    {"_ZdlPv", ". p", false},
    {"_ZdaPv", ". p", false},
    {"_ZdlPvm", ". p i", false},
    {"_ZdaPvm", ". p i", false},
    {"_ZdlPvSt11align_val_t", ". p i", false},
    {"_ZdaPvSt11align_val_t", ". p i", false},
    {"_ZdlPvmSt11align_val_t", ". p i i", false},
    {"_ZdaPvmSt11align_val_t", ". p i i", false},
    // The std::nothrow forms: the last operand is the nothrow_t tag.
    {"_ZnwmRKSt9nothrow_t", "p i p", false},
    {"_ZnamRKSt9nothrow_t", "p i p", false},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", "p i i p", false},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", "p i i p", false},
    {"_ZdlPvRKSt9nothrow_t", ". p p", false},
    {"_ZdaPvRKSt9nothrow_t", ". p p", false},
    // Byte copies.
    {"memcpy", "cpy", false},
    {"memmove", "cpy", false},
    {"memset", "p p . i", false},
    {"strlen", "i p", false},
    // libm functions with integer or pointer parameters. The others take
    // and return floats, which their IR types already say.
    {"frexp", ". . *i", true},
    {"ldexp", ". . i", true},
    {"scalbn", ". . i", true},
    {"scalbln", ". . i", true},
    {"ilogb", "i .", true},
    {"lrint", "i .", true},
    {"llrint", "i .", true},
    {"lround", "i .", true},
    {"llround", "i .", true},
    {"modf", ". . *a", true},
    {"sincos", ". . *a *a", true},
    {"remquo", ". . . *i", true},
    {"lgamma_r", ". . *i", false},
    {"lgammaf_r", ". . *i", false},
    {"lgammal_r", ". . *i", false},
    {"jn", ". i .", true},
    {"yn", ". i .", true},
};

} // namespace

ConcreteType tbaaAccessType(const MDNode *Tag, const Module &M) {
  if (!Tag)
    return ConcreteType::Unknown;
  StringRef Name = typeNodeName(accessTypeNode(Tag));
  if (Name.empty())
    return ConcreteType::Unknown;
  if (Name == "long double") {
    Triple T(M.getTargetTriple());
    if (T.isX86())
      return ConcreteType::X86_FP80;
    if (T.isPPC64() && !T.isLittleEndian())
      return ConcreteType::PPC_FP128;
    return ConcreteType::FP128;
  }
  // "p1 int", "p2 omnipotent char": the pointer kinds of clang's
  // -fpointer-tbaa.
  if (Name.size() > 3 && Name[0] == 'p' && isDigit(Name[1]) &&
      Name.contains(' '))
    return ConcreteType::Pointer;
  return StringSwitch<ConcreteType>(Name)
      .Case("double", ConcreteType::Double)
      .Case("float", ConcreteType::Float)
      .Cases("_Float16", "__fp16", "half", ConcreteType::Half)
      .Case("__bf16", ConcreteType::BFloat)
      .Cases("__float128", "_Float128", ConcreteType::FP128)
      .Cases("int", "long", "long long", "short", ConcreteType::Integer)
      .Cases("bool", "_Bool", "__int128", "wchar_t", ConcreteType::Integer)
      .Cases("char8_t", "char16_t", "char32_t", ConcreteType::Integer)
      .Cases("any pointer", "vtable pointer", ConcreteType::Pointer)
      .Default(ConcreteType::Unknown);
}

bool isFortranDescriptorAccess(const MDNode *Tag) {
  return Tag && typeNodeName(accessTypeNode(Tag)) == "descriptor member";
}

StringRef knownSignature(StringRef Name) {
  for (const Signature &S : Signatures) {
    if (Name == S.Name)
      return S.Tokens;
    if (S.HasFloatVariants && Name.size() == strlen(S.Name) + 1 &&
        Name.starts_with(S.Name) && (Name.back() == 'f' || Name.back() == 'l'))
      return S.Tokens;
  }
  return StringRef();
}

} // namespace adjoint
