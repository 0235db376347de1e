# Installs the attnc build into WORK_DIR/prefix, then configures, builds and runs
# examples/cmake-consumer against it (both of its programs), and links a C program through
# attnc-runtime.pc. Run with cmake -P; ATTNC_BUILD_DIR, ATTNC_SOURCE_DIR, WORK_DIR, CXX.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("$ ${ARGN}\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc})")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${ATTNC_BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${ATTNC_SOURCE_DIR}/examples/cmake-consumer -B ${consumer_build}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${consumer_build} -j2)
run(${consumer_build}/checked_in)
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
