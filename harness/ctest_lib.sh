# ctest_lib.sh: the tests' run on a GPU machine, one form for the scripts that
# run it there (harness/gpu_session.sh, papers/device-queue.sh). Sourced.

# mlab_ctest DIR LOG SECONDS [CTEST OPTION...]: every test but the slow ones
# in the build folder DIR, -j8, their output in LOG. SECONDS (empty: no bound)
# stops ctest by SIGINT, as Ctrl-C would, and 10 s later by SIGKILL; the
# tests it had not finished are stopped, neither passed nor failed. One
# mechanism for both scripts: ctest's own --stop-time stopped nothing under
# CMake 3.25 (perf-notes v53), while this one stopped a suite's tests on an
# H100. -j8 (was -j4): the device machines have 16 cores; with -j4 a suite's
# tests met the deadline after 223 of 284, with -j8 on the same H100 272 ran
# in ~170 s, none failed (perf-notes v71, papers/reports/h100-2026-12-07d).
# Returns ctest's status; 124 where SECONDS stopped it.
mlab_ctest() {
  local dir=$1 log=$2 left=$3 stop=()
  shift 3
  if [ -n "$left" ]; then
    [ "$left" -ge 1 ] 2>/dev/null || left=1
    stop=(timeout -s INT -k 10 "$left")
  fi
  (cd "$dir" && "${stop[@]}" ctest -LE slow --output-on-failure -j8 "$@") > "$log" 2>&1
}

# mlab_ctest_stopped DIR LOG [CTEST OPTION...]: "N of M tests", how far a
# stopped run got (M: the tests the same options select)
mlab_ctest_stopped() {
  local dir=$1 log=$2
  shift 2
  echo "$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$log") of $(cd "$dir" && ctest -N -LE slow "$@" | grep -cE 'Test +#') tests"
}
