# Runs the Neovim client test (test.lua) headless against attnc lsp; fails when nvim is missing.
if(NOT NVIM OR NOT EXISTS "${NVIM}")
  message(FATAL_ERROR "nvim not found: install Debian's `neovim` (scripts/install-deps.sh) to run the editor test")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{ATTNC} "${ATTNC}")
set(ENV{ATTNC_TEST_DIR} "${WORK}")
set(ENV{XDG_CACHE_HOME} "${WORK}/cache")
set(ENV{XDG_STATE_HOME} "${WORK}/state")
set(ENV{XDG_DATA_HOME} "${WORK}/data")
set(ENV{XDG_CONFIG_HOME} "${WORK}/config")
execute_process(
  COMMAND "${NVIM}" --headless -n -u NONE -i NONE -c "luafile ${SCRIPT}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 90)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the Neovim test failed (${status})")
endif()
