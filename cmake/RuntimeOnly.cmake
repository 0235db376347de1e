# ATTNC_PYTHON_RUNTIME_ONLY: runtime/ and python/'s attnc._runtime, nothing that needs Halide,
# ANTLR, Boost or SPIRV-Tools. Included by the top-level CMakeLists.txt, which stops after it.
find_package(Threads REQUIRED)
find_package(CUDAToolkit)
if(ATTNC_VENDOR_INCLUDE)
  # Carried headers (Vulkan's, OpenSSL's, ...) after the system's own.
  include_directories(AFTER SYSTEM ${ATTNC_VENDOR_INCLUDE})
endif()
# OpenSSL: installed, or its headers carried and the system's libcrypto.so.3 (no dev package).
find_package(OpenSSL QUIET)
if(NOT TARGET OpenSSL::Crypto)
  find_path(_attn_openssl openssl/evp.h PATHS ${ATTNC_VENDOR_INCLUDE} REQUIRED)
  find_library(_attn_crypto NAMES crypto libcrypto.so.3 REQUIRED)
  add_library(OpenSSL::Crypto UNKNOWN IMPORTED)
  set_target_properties(OpenSSL::Crypto PROPERTIES IMPORTED_LOCATION ${_attn_crypto}
                                                   INTERFACE_INCLUDE_DIRECTORIES ${_attn_openssl})
endif()
# Header-only dependencies: installed, or from ATTNC_VENDOR_INCLUDE.
find_package(nlohmann_json 3 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(_attn_json nlohmann/json.hpp PATHS ${ATTNC_VENDOR_INCLUDE} REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${_attn_json})
endif()
find_package(dlpack QUIET)
if(NOT TARGET dlpack::dlpack)
  find_path(_attn_dlpack dlpack/dlpack.h PATHS ${ATTNC_VENDOR_INCLUDE} REQUIRED)
  add_library(dlpack::dlpack INTERFACE IMPORTED)
  target_include_directories(dlpack::dlpack INTERFACE ${_attn_dlpack})
endif()

function(attn_add_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                            $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>)
  target_compile_options(${name} PRIVATE ${ATTNC_WARNINGS})
endfunction()
configure_file(${PROJECT_SOURCE_DIR}/cmake/Version.h.in ${PROJECT_BINARY_DIR}/include/attnc/Version.h @ONLY)

add_subdirectory(${PROJECT_SOURCE_DIR}/runtime ${PROJECT_BINARY_DIR}/runtime)
add_subdirectory(${PROJECT_SOURCE_DIR}/python ${PROJECT_BINARY_DIR}/python)
