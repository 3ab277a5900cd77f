//===- Diagnostics.cpp - User-facing errors ---------------------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adjoint {

namespace {

/// flang 19's backend diagnostic handler (BackendRemarkConsumer in flang's
/// FrontendActions.cpp) passes optimization remarks on and swallows every
/// other diagnostic, errors included: it neither prints them nor fails the
/// compilation, so a flang build with an AD error would quietly produce a
/// program whose gradients are zero. Inside flang, errors are therefore
/// printed here, and stopIfErrorsDropped ends the compilation.
bool hostDropsErrors() {
  static const bool Drops =
      sys::path::filename(sys::fs::getMainExecutable(nullptr, nullptr))
          .starts_with("flang");
  return Drops;
}

std::string demangleFortranNames(StringRef Message);

/// Errors printed here because the host would have dropped them.
unsigned ErrorsPrintedHere = 0;

/// Prints an error as compilers do: "file:line:col: error: ...".
void printError(const Instruction &At, const Twine &Message) {
  raw_ostream &OS = errs();
  if (const DebugLoc &DL = At.getDebugLoc()) {
    OS << DL->getFilename() << ':' << DL.getLine();
    if (DL.getCol())
      OS << ':' << DL.getCol();
    OS << ": ";
  }
  OS << "error: adjoint: " << Message;
  if (!At.getDebugLoc()) {
    // Errors inside a gradient name the request already; AD's working
    // copies (f.adjoint.primal) mean nothing to a user.
    StringRef Name = At.getFunction()->getName();
    if (!Name.contains(".adjoint."))
      OS << demangleFortranNames(" (in function '" + demangle(Name) + "')");
    OS << " [compile with -g for source lines]";
  }
  OS << '\n';
}

/// The source name of a symbol that flang mangled, or "" if \p Name is
/// not one: `_QM<module>P<procedure>` is procedure::module, with `F<host>`
/// for internal procedures and `E<name>` for variables; `_QQmain` is the
/// main program. Fortran names are lower case: the upper-case letters are
/// the tags.
std::string demangleFortran(StringRef Name) {
  if (Name == "_QQmain")
    return "main program";
  if (!Name.consume_front("_Q") || Name.starts_with("Q") || Name.empty())
    return "";
  std::string Result;
  while (!Name.empty()) {
    char Tag = Name.front();
    if (!isUpper(Tag))
      return "";
    Name = Name.drop_front();
    StringRef Part = Name.take_while([](char C) { return !isUpper(C); });
    Name = Name.drop_front(Part.size());
    if (Part.empty() || !StringRef("MFPE").contains(Tag))
      return "";
    if (!Result.empty())
      Result += "::";
    Result += Part;
  }
  return Result;
}

/// \p Message with the names flang mangled, quoted in it, in source form.
std::string demangleFortranNames(StringRef Message) {
  std::string Result;
  while (!Message.empty()) {
    size_t Start = Message.find("'_Q");
    size_t End =
        Start == StringRef::npos ? Start : Message.find('\'', Start + 1);
    if (End == StringRef::npos) {
      Result += Message;
      break;
    }
    StringRef Name = Message.slice(Start + 1, End);
    std::string Source = demangleFortran(Name);
    Result += Message.take_front(Start + 1);
    Result += Source.empty() ? Name.str() : Source;
    Message = Message.drop_front(End);
  }
  return Result;
}

} // namespace

void reportError(const Instruction &At, const Twine &Twined) {
  const Function &F = *At.getFunction();
  std::string Message = demangleFortranNames(Twined.str());
  // DiagnosticInfoUnsupported is what clang turns into a located
  // "error: ..." without printing IR or a backtrace.
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, "adjoint: " + Message, At.getDebugLoc()));
  if (hostDropsErrors()) {
    printError(At, Message);
    ++ErrorsPrintedHere;
  }
}

void stopIfErrorsDropped() {
  if (ErrorsPrintedHere == 0)
    return;
  // As a compiler does after errors: no output. report_fatal_error also
  // removes the output file the host has opened.
  report_fatal_error(Twine("adjoint: ") + Twine(ErrorsPrintedHere) +
                         (ErrorsPrintedHere == 1 ? " error" : " errors") +
                         " reported above; compilation stopped",
                     /*gen_crash_diag=*/false);
}

std::string describeLocation(const Instruction &I) {
  std::string S;
  raw_string_ostream OS(S);
  if (const DebugLoc &DL = I.getDebugLoc()) {
    OS << DL->getFilename() << ':' << DL.getLine();
    if (DL.getCol())
      OS << ':' << DL.getCol();
    return S;
  }
  OS << "function '" << demangle(I.getFunction()->getName()) << "'";
  return S;
}

std::string describeType(const Type *T) {
  if (const auto *ST = dyn_cast<StructType>(T); ST && ST->hasName())
    return ST->getName().str();
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

std::string describeCType(const Type *T) {
  if (T->isDoubleTy())
    return "double";
  if (T->isFloatTy())
    return "float";
  if (T->isHalfTy())
    return "_Float16";
  if (T->isX86_FP80Ty())
    return "long double";
  if (T->isFP128Ty())
    return "__float128";
  if (T->isVoidTy())
    return "void";
  if (T->isPointerTy())
    return "void *";
  if (T->isIntegerTy(1))
    return "bool";
  if (T->isIntegerTy(8))
    return "char";
  if (T->isIntegerTy(16))
    return "short";
  if (T->isIntegerTy(32))
    return "int";
  if (T->isIntegerTy(64))
    return "long";
  return describeType(T);
}

std::string describeValue(const Value &V) {
  if (const auto *A = dyn_cast<Argument>(&V); A && !A->hasName())
    return "parameter " + std::to_string(A->getArgNo() + 1);
  if (isa<Function>(V) || V.hasName())
    return "'" + demangle(V.getName()) + "'";
  if (const auto *I = dyn_cast<Instruction>(&V))
    return std::string("the result of a '") + I->getOpcodeName() + "'";
  return "an unnamed value";
}

} // namespace adjoint
