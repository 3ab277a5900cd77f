# lit configuration for Adjoint's test suite.
#
# Substitutions:
#   %opt-adjoint     opt with the plugin loaded (add -passes=adjoint etc.)
#   %clang-adjoint   clang with the plugin on the optimization pipeline
#   %clangxx-adjoint the same as a C++ driver (links the C++ library and, with
#                    -fsanitize=address, the sanitizer's operator new)
#   %clang-lto-link  clang linking -flto objects with lld, the plugin loaded
#                    into lld's LTO pipeline (AD at link time)
#   %clangxx-lto-link the same as a C++ driver
#   %lto-plugin-options  -Wl,-mllvm,-load=<plugin>, so that lld knows the
#                    plugin's options: %clang-lto-link %lto-plugin-options
#                    -Wl,-mllvm,-adjoint-...
#   %adjoint-plugin  the plugin's path
#   %clang           plain clang, e.g. for references
#   %test-include    include path of the shared test headers (test/Inputs)
#   FileCheck, not   the LLVM 19 tools
#   %adjoint-build   the build directory (bin/adjoint-cc, lib/Adjoint.so, ...;
#                    the layout of an installed prefix), for test/Integration
#   %adjoint-src     the source directory (examples/)
#   %cmake, %ctest   the cmake that configured this build, its ctest
# With flang (feature "flang"; test/Fortran needs it):
#   %flang-adjoint   flang-new-19 with the plugin on the optimization pipeline
#   %flang           plain flang-new-19
#   %fortran-runtime the link flags of flang's runtime, for programs linked
#                    by clang
import os
import shutil
import lit.formats

config.name = "Adjoint"
config.test_format = lit.formats.ShTest(execute_external=False)
# .test: shell scripts of RUN lines (test/Integration).
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.adjoint_obj_root, "test")

include_dir = os.path.join(config.adjoint_src_root, "include")
inputs_dir = os.path.join(config.adjoint_src_root, "test", "Inputs")

config.substitutions.append(
    ("%opt-adjoint", f"{config.opt} -load-pass-plugin={config.adjoint_plugin} -verify-each"))
config.substitutions.append(
    ("%clang-adjoint",
     f"{config.clang} -fpass-plugin={config.adjoint_plugin} -I{include_dir} -I{inputs_dir} -Werror=implicit-function-declaration"))
config.substitutions.append(
    ("%clangxx-adjoint",
     f"{config.clang} --driver-mode=g++ -fpass-plugin={config.adjoint_plugin} -I{include_dir} -I{inputs_dir}"))
lto_link = f"-flto -fuse-ld=lld -Wl,--load-pass-plugin={config.adjoint_plugin}"
config.substitutions.append(("%clang-lto-link", f"{config.clang} {lto_link}"))
config.substitutions.append(
    ("%clangxx-lto-link", f"{config.clang} --driver-mode=g++ {lto_link}"))
config.substitutions.append(
    ("%lto-plugin-options", f"-Wl,-mllvm,-load={config.adjoint_plugin}"))
config.substitutions.append(("%clang", f"{config.clang} -I{include_dir} -I{inputs_dir}"))
# Plugin options on the clang command line need the plugin loaded before
# options are parsed: %clang-adjoint %plugin-options -mllvm -adjoint-...
config.substitutions.append(
    ("%plugin-options", f"-Xclang -load -Xclang {config.adjoint_plugin}"))
config.substitutions.append(("%test-include", inputs_dir))
config.substitutions.append(("%adjoint-plugin", config.adjoint_plugin))
config.substitutions.append(("%adjoint-build", config.adjoint_obj_root))
config.substitutions.append(("%adjoint-src", config.adjoint_src_root))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%ctest", config.ctest))
# A compiler that cannot load the plugin, for the configure-time checks.
if shutil.which("gcc"):
    config.available_features.add("gcc")
if config.flang and not config.flang.endswith("NOTFOUND"):
    config.available_features.add("flang")
    config.substitutions.append(
        ("%flang-adjoint", f"{config.flang} -fpass-plugin={config.adjoint_plugin}"))
    config.substitutions.append(("%flang", config.flang))
    config.substitutions.append(
        ("%fortran-runtime",
         f"-L{config.llvm_lib_dir} -lFortranRuntime -lFortranDecimal -lm"))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("not ", config.not_tool + " "))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
