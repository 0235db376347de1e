# `cmake --install`: the attnc binary, the runtime (static and shared), the compiler library
# (shared: libattnc_compiler, compiler/CMakeLists.txt), their public headers with the DLPack header
# they include, a CMake package (find_package(attnc): attnc::runtime, attnc::runtime_shared,
# attnc::compiler, attnc::attnc and attnc_add_kernels), attnc-runtime.pc and attnc-compiler.pc.
# The stdlib is built into attnc and libattnc_compiler, so the installed tree can move.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ATTNC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/attnc)

# attnc links Halide and ANTLR dynamically; keep finding them where it was built against them.
set_target_properties(attnc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
set_target_properties(attn_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(attn_runtime_shared PROPERTIES EXPORT_NAME runtime_shared)
# libattnc_compiler finds libattn_runtime beside it, and Halide and ANTLR where it was built.
set_target_properties(attnc_compiler PROPERTIES EXPORT_NAME compiler INSTALL_RPATH "$ORIGIN"
                                                INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS attnc EXPORT attncTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS attn_runtime attn_runtime_shared attnc_compiler EXPORT attncTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY runtime/include/attn compiler/include/attn DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${ATTNC_DLPACK_HEADER} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dlpack)

install(EXPORT attncTargets NAMESPACE attnc:: DESTINATION ${ATTNC_CMAKE_DIR})
configure_package_config_file(cmake/package/attncConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/attncConfig.cmake
                              INSTALL_DESTINATION ${ATTNC_CMAKE_DIR})
# 0.x: a minor version may change the kernel ABI or the manifest.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/attncConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/attncConfig.cmake
              ${PROJECT_BINARY_DIR}/package/attncConfigVersion.cmake
              cmake/package/AttncAddKernels.cmake
        DESTINATION ${ATTNC_CMAKE_DIR})

# The .pc file finds its prefix from its own place, so the installed tree can be moved.
file(RELATIVE_PATH ATTNC_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" ATTNC_PC_TO_PREFIX "${ATTNC_PC_TO_PREFIX}")
foreach(_pc attnc-runtime attnc-compiler)
  configure_file(cmake/package/${_pc}.pc.in ${PROJECT_BINARY_DIR}/package/${_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/${_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
