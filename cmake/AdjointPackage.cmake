# What `cmake --install build --prefix P` adds for users of Adjoint, beside
# the plugin and the header:
#   P/bin/adjoint-cc, adjoint-c++             drivers (tools/CMakeLists.txt)
#   P/lib/cmake/Adjoint/AdjointConfig.cmake   find_package(Adjoint)
#   P/lib/cmake/Adjoint/AdjointConfigVersion.cmake
#   P/lib/pkgconfig/adjoint.pc                pkg-config
#
# The plugin stays lib/Adjoint.so, not lib/<multiarch>/ or a versioned
# directory: it is loaded by path, never found by the dynamic linker, and
# keeping the build tree's relative layout (bin/, lib/Adjoint.so, include/)
# means every file that locates the plugin (drivers, CMake config,
# pkg-config file) does so by one relative path in both trees. The build
# tree is therefore usable as a prefix itself: the files below are generated
# into it, and the header is copied into build/include.
include(CMakePackageConfigHelpers)

set(ADJOINT_CMAKE_DIR "${PROJECT_BINARY_DIR}/lib/cmake/Adjoint")

configure_file("${PROJECT_SOURCE_DIR}/include/adjoint/adjoint.h"
               "${PROJECT_BINARY_DIR}/include/adjoint/adjoint.h" COPYONLY)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/AdjointConfig.cmake.in"
  "${ADJOINT_CMAKE_DIR}/AdjointConfig.cmake"
  INSTALL_DESTINATION lib/cmake/Adjoint)
# Before 1.0, a minor version may change the interface.
write_basic_package_version_file(
  "${ADJOINT_CMAKE_DIR}/AdjointConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
configure_file("${CMAKE_CURRENT_LIST_DIR}/adjoint.pc.in"
               "${PROJECT_BINARY_DIR}/lib/pkgconfig/adjoint.pc" @ONLY)

install(FILES "${ADJOINT_CMAKE_DIR}/AdjointConfig.cmake"
              "${ADJOINT_CMAKE_DIR}/AdjointConfigVersion.cmake"
        DESTINATION lib/cmake/Adjoint)
install(FILES "${PROJECT_BINARY_DIR}/lib/pkgconfig/adjoint.pc"
        DESTINATION lib/pkgconfig)
