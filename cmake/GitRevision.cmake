# Run at build time (cmake -P): writes OUT, a one-function C++ file giving the
# source tree's `git describe`, and leaves OUT untouched when the revision has
# not changed, so that only that file recompiles after a commit or an edit.
# Reconfiguring is not needed for `cuzk version` and the benches' header lines
# to name the revision the binary was built from.
#   -DSOURCE_DIR=<tree> -DOUT=<file.cc> [-DGIT_EXECUTABLE=<git>]
set(revision "unknown")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND described)
    set(revision "${described}")
  endif()
endif()
set(text "// Written by cmake/GitRevision.cmake at build time.\n#include \"cuzk/build_info.h\"\n\nconst char* cuzk_git_revision() { return \"${revision}\"; }\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${text}")
