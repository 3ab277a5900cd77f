//===- Plugin.cpp - Registration with LLVM's pass builder -------------------===//
//
// Part of Adjoint, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Only registration lives here: the pass names opt understands, and the
// extension points through which clang, flang and lld run AD after their
// optimization pipelines.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Activity/ActivityAnalysis.h"
#include "adjoint/Plugin/AdjointPass.h"
#include "adjoint/Preprocess/Preprocess.h"
#include "adjoint/Support/LinkTime.h"
#include "adjoint/TypeAnalysis/TypeAnalysis.h"

#include "llvm/ADT/Any.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

using namespace llvm;

/// The Enzyme paper's "Ref" configuration, kept to measure what running AD
/// on optimized IR is worth: the same pass (same preprocessing, rules,
/// planning and cleanup of generated functions) runs at the start of the
/// optimization pipeline instead of its end, and the whole pipeline then
/// optimizes the gradients with the rest of the module.
static cl::opt<bool> BeforeOptimization(
    "adjoint-before-optimization",
    cl::desc("Differentiate before the optimization pipeline instead of "
             "after it (the 'Ref' configuration of benchmarks/run)"),
    cl::init(false));

namespace {

/// The modules on which a pipeline ran EliminateAvailableExternallyPass.
/// LLVM 19 runs it before OptimizerLast in every optimizing (O1-O3)
/// pipeline except the LTO pre-link ones, which keep available_externally
/// bodies for inlining at link time (checked with -fdebug-pass-manager for
/// clang and flang 19). OptimizerLast callbacks are not told their phase;
/// this tells it for compilers that mark LTO bitcode with no module flag:
/// flang.
class PipelineRecord {
public:
  /// A record of the pipelines that \p PIC instruments, kept alive by the
  /// callbacks that fill it.
  static std::shared_ptr<PipelineRecord>
  observe(PassInstrumentationCallbacks &PIC) {
    auto Record = std::make_shared<PipelineRecord>();
    auto Observe = [Record](StringRef PassID, Any IR) {
      if (PassID != "EliminateAvailableExternallyPass")
        return;
      if (const auto *M = any_cast<const Module *>(&IR))
        Record->Eliminated.insert(*M);
    };
    PIC.registerBeforeNonSkippedPassCallback(Observe);
    PIC.registerBeforeSkippedPassCallback(Observe);
    return Record;
  }

  bool eliminatedAvailableExternally(const Module &M) const {
    return Eliminated.contains(&M);
  }

private:
  SmallPtrSet<const Module *, 2> Eliminated;
};

/// AD in a compiler's pipeline, except in the first half of a full-LTO
/// build: there each file is optimized into bitcode on its own, and a
/// request may name a function of another file. The requests wait for the
/// link, where lld merges the bitcode and runs AD at the end of its LTO
/// pipeline (FullLinkTimeOptimizationLast) on the whole program. The module
/// is left untouched: the marker globals, entry points and registrations
/// are finalized by that run.
class AdjointUnlessPreLinkPass
    : public PassInfoMixin<AdjointUnlessPreLinkPass> {
public:
  AdjointUnlessPreLinkPass(PassBuilder *PB, OptimizationLevel Level,
                           std::shared_ptr<const PipelineRecord> Record)
      : AD(PB, Level), Level(Level), Record(std::move(Record)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (isFullLTOPreLink(M))
      return PreservedAnalyses::all();
    return AD.run(M, MAM);
  }
  static bool isRequired() { return true; }

private:
  /// clang marks LTO bitcode with module flags, at every level: full LTO
  /// waits for the link (also in the second, machine-code pipeline of
  /// -ffat-lto-objects, whose module is flagged the same), ThinLTO is
  /// differentiated file by file anyway, before or at the link. A module
  /// without flags is pre-link bitcode if the optimizing pipeline that just
  /// ran kept its available_externally functions (flang at O0 -flto is not
  /// recognised).
  bool isFullLTOPreLink(const Module &M) const {
    switch (adjoint::getLTOKind(M)) {
    case adjoint::LTOKind::Full:
      return true;
    case adjoint::LTOKind::Thin:
      return false;
    case adjoint::LTOKind::None:
      break;
    }
    return Level != OptimizationLevel::O0 && Record &&
           !Record->eliminatedAvailableExternally(M);
  }

  adjoint::AdjointPass AD;
  OptimizationLevel Level;
  std::shared_ptr<const PipelineRecord> Record;
};

/// `adjoint`, `enzyme` (for Enzyme's build scripts), or `adjoint<O0>` ...
/// `adjoint<O3>` to choose how generated functions are cleaned up.
std::optional<OptimizationLevel> parseAdjointPassName(StringRef Name) {
  if (Name == "adjoint" || Name == "enzyme")
    return OptimizationLevel::O2;
  if (!Name.consume_front("adjoint<") || !Name.consume_back(">"))
    return std::nullopt;
  return StringSwitch<std::optional<OptimizationLevel>>(Name)
      .Case("O0", OptimizationLevel::O0)
      .Case("O1", OptimizationLevel::O1)
      .Case("O2", OptimizationLevel::O2)
      .Case("O3", OptimizationLevel::O3)
      .Default(std::nullopt);
}

void registerAdjoint(PassBuilder &PB) {
  std::shared_ptr<const PipelineRecord> Record;
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    Record = PipelineRecord::observe(*PIC);
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        std::optional<OptimizationLevel> Level = parseAdjointPassName(Name);
        if (!Level)
          return false;
        MPM.addPass(adjoint::AdjointPass(&PB, *Level));
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "adjoint-canonicalize-loops") {
          FPM.addPass(adjoint::LoopCanonicalFormPass());
          return true;
        }
        if (Name != "print<adjoint-activity>")
          return false;
        FPM.addPass(adjoint::ActivityPrinterPass(outs()));
        return true;
      });
  // A module pass: the type analysis follows calls into other functions.
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<adjoint-plan>") {
          MPM.addPass(adjoint::CachePlanPrinterPass(outs()));
          return true;
        }
        if (Name != "print<adjoint-types>")
          return false;
        MPM.addPass(adjoint::TypeAnalysisPrinterPass(outs()));
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(adjoint::ProtectCustomDerivativesPass());
        // Nothing has run yet to tell flang's pre-link pipeline apart.
        if (BeforeOptimization)
          MPM.addPass(AdjointUnlessPreLinkPass(&PB, Level, nullptr));
      });
  // After the whole optimization pipeline, at every level including O0, so
  // that AD sees optimized IR. ThinLTO's backends in the linker run this
  // pipeline too, module by module.
  PB.registerOptimizerLastEPCallback(
      [&PB, Record](ModulePassManager &MPM, OptimizationLevel Level) {
        if (!BeforeOptimization)
          MPM.addPass(AdjointUnlessPreLinkPass(&PB, Level, Record));
      });
  // The full-LTO link (lld --load-pass-plugin) runs neither callback above.
  // Before it optimizes the merged module, protect the functions with
  // registered derivatives from inlining across files: the compile-time
  // run did not see a registration in another file (or did not run).
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(adjoint::ProtectCustomDerivativesPass());
        if (BeforeOptimization)
          MPM.addPass(adjoint::AdjointPass(&PB, Level));
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        if (!BeforeOptimization)
          MPM.addPass(adjoint::AdjointPass(&PB, Level));
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Adjoint", ADJOINT_VERSION,
          registerAdjoint};
}
