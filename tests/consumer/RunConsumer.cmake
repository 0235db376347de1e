# Installs the attnc build into WORK_DIR/prefix, then configures, builds and runs
# examples/cmake-consumer against it (both of its programs, the sources of `pregenerated` written
# by the installed attnc compile, as the example's readme says), links a C program through
# attnc-runtime.pc, moves the prefix and builds and runs examples/runtime-consumer against the
# moved one, and a program through attnc-compiler.pc. Run with cmake -P; ATTNC_BUILD_DIR,
# ATTNC_SOURCE_DIR, WORK_DIR, CXX.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)

# run(command...): runs it and fails unless it exits with 0; its output is left in run_output.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("$ ${ARGN}\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc})")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${ATTNC_BUILD_DIR} --prefix ${prefix})
set(generated ${WORK_DIR}/generated)
run(${prefix}/bin/attnc compile ${ATTNC_SOURCE_DIR}/examples/cmake-consumer/kernels/window.attn -t cpu -o ${generated})
run(${CMAKE_COMMAND} -S ${ATTNC_SOURCE_DIR}/examples/cmake-consumer -B ${consumer_build}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
    -DATTNC_GENERATED_DIR=${generated})
run(${CMAKE_COMMAND} --build ${consumer_build} -j2)
run(${consumer_build}/pregenerated)
run(${consumer_build}/built_kernels)

# The static runtime through pkg-config: its private dependencies are in Libs.private.
find_program(PKG_CONFIG pkg-config REQUIRED)  # scripts/install-deps.sh installs it
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs --static attnc-runtime OUTPUT_VARIABLE flags
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(flags UNIX_COMMAND "${flags}")
list(TRANSFORM flags REPLACE "^-lattn_runtime$" "-l:libattn_runtime.a")  # the static one
file(WRITE ${WORK_DIR}/loader.cpp "#include <attn/loader.h>\nint main() { attn_loader_options o{}; o.no_disk_cache = 1;\n  attn_loader_destroy(attn_loader_create(&o)); }\n")
run(${CXX} -std=c++17 ${WORK_DIR}/loader.cpp -o ${WORK_DIR}/loader ${flags})
run(${WORK_DIR}/loader)

# examples/runtime-consumer against the prefix moved elsewhere (the package, the libraries' run
# paths and the built-in stdlib go with it), with a kernel cache of its own: the first run
# compiles the kernel, the second process finds it in the disk cache.
set(moved ${WORK_DIR}/moved-prefix)
file(RENAME ${prefix} ${moved})
set(runtime_build ${WORK_DIR}/runtime-build)
run(${CMAKE_COMMAND} -S ${ATTNC_SOURCE_DIR}/examples/runtime-consumer -B ${runtime_build}
    -DCMAKE_PREFIX_PATH=${moved} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${runtime_build} -j2)
set(ENV{ATTNC_CACHE_DIR} ${WORK_DIR}/cache)
set(kernel_file ${ATTNC_SOURCE_DIR}/examples/runtime-consumer/kernels/doc_causal.attn)
run(${runtime_build}/runtime_consumer ${kernel_file})
if(NOT run_output MATCHES "compiles 1, disk hits 0")
  message(FATAL_ERROR "the first run should compile the kernel")
endif()
run(${runtime_build}/runtime_consumer ${kernel_file})
if(NOT run_output MATCHES "compiles 0, disk hits 1")
  message(FATAL_ERROR "the second process should load the kernel from the disk cache")
endif()

# The compiler library through attnc-compiler.pc of the moved prefix (shared libraries: the
# program finds them through a run path to the .pc's libdir).
set(ENV{PKG_CONFIG_PATH} ${moved}/lib/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs attnc-compiler OUTPUT_VARIABLE flags
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${PKG_CONFIG} --variable=libdir attnc-compiler OUTPUT_VARIABLE libdir
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${CXX} -std=c++17 ${ATTNC_SOURCE_DIR}/tests/consumer/CompilerViaPkgConfig.cpp -o ${WORK_DIR}/compiler_pc ${flags}
    -Wl,-rpath,${libdir})
run(${WORK_DIR}/compiler_pc)

# A bad .attn: the located diagnostic on stderr and exit status 1.
file(WRITE ${WORK_DIR}/bad.attn "import std.documents;\n\nkernel bad(doc: tensor<i32>[len]) {\n  mask = document_casual(doc);\n}\n")
execute_process(COMMAND ${runtime_build}/runtime_consumer ${WORK_DIR}/bad.attn RESULT_VARIABLE rc ERROR_VARIABLE err)
message("$ runtime_consumer bad.attn (exit ${rc})\n${err}")
if(NOT rc EQUAL 1 OR NOT err MATCHES "bad\\.attn:4:10: error: ")
  message(FATAL_ERROR "a bad file should give its located error and exit status 1")
endif()
