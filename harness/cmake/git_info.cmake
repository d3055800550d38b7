# git_info.cmake: the commit and dirty flag the program records, read from
# git at every build, not once at configure time (a build made after a new
# commit or an edit would otherwise record the commit the build folder was
# configured at: results files, `mlabench --version` and case files' producer
# would name a commit whose code did not run).
#
#   cmake -DSRC=<source dir> -DOUT=<header> [-DCOMMIT=<hash> -DCOMMIT_DIRTY=0|1] -P git_info.cmake
#
# Writes OUT (MLAB_GIT_COMMIT, MLAB_GIT_DIRTY) only when its text changes, so
# an unchanged tree recompiles nothing. COMMIT, when given (a copied tree:
# -DMLAB_COMMIT, harness/gpu_session.sh), wins over what git says; without
# git or outside a checkout the commit is "unknown".
if(NOT SRC OR NOT OUT)
  message(FATAL_ERROR "git_info.cmake: -DSRC=<source dir> -DOUT=<header> are required")
endif()
if(COMMIT)
  set(_commit "${COMMIT}")
  if(COMMIT_DIRTY)
    set(_dirty 1)
  else()
    set(_dirty 0)
  endif()
else()
  execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY "${SRC}"
                  OUTPUT_VARIABLE _commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR _commit STREQUAL "")
    set(_commit "unknown")
    set(_dirty 0)
  else()
    execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY "${SRC}"
                    OUTPUT_VARIABLE _status ERROR_QUIET)
    if(_status STREQUAL "")
      set(_dirty 0)
    else()
      set(_dirty 1)
    endif()
  endif()
endif()
set(_text "/* git_info.h: written at each build by harness/cmake/git_info.cmake. */
#ifndef MLAB_GIT_INFO_H
#define MLAB_GIT_INFO_H
#define MLAB_GIT_COMMIT \"${_commit}\"
#define MLAB_GIT_DIRTY ${_dirty}
#endif
")
set(_old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}" "${_text}")
endif()
