#!/usr/bin/env bash
# gpu_ab.sh: a same-machine A/B of the working tree against an earlier commit
# (or against itself built another way), the way each kernel change in
# papers/perf-notes.md was measured: both trees built on the GPU machine, the
# recorded cases run new, base, base, new (two pairs in opposite orders: a
# change is believed when both pairs agree), and `mlabench compare` of each
# pair.
#
#   harness/gpu_ab.sh prepare COMMIT
#       here, in the git checkout: the tree of COMMIT into .ab/COMMIT
#       (ignored), to travel with the working tree (the device tool: carry
#       [".ab"]; the GPU machine has no .git)
#   harness/gpu_ab.sh run COMMIT [mlabench run options...]
#       on the GPU machine: builds the working tree and .ab/COMMIT (Release,
#       the GPU back end of $MLAB_GPU, default cuda), records the 8 competition
#       cases (data/record_competition.py; `mlabench gen --suite` where PyTorch
#       cannot), runs the pairs and compares them. Options go to every
#       `mlabench run` (default --max-time 0.15; e.g. --variants fp8,bf16).
#       COMMIT "worktree": the base is the working tree too (nothing to
#       prepare), for an A/B of build options.
#       $OUT (default ./out) gets ab_new_1.h5, ab_base_1.h5, ab_base_2.h5,
#       ab_new_2.h5, compare.txt and ab_logs.tar.gz (the builds', the
#       recording's and the runs' logs): six files, within what the device
#       tool brings back. compare.txt has both pairs as one table
#       (harness/tools/ab_table.py; then again as ratios to each run's read
#       limit, --per-read-limit) and ends with the two builds' kernels
#       compared by their SASS (harness/nv_sass.sh --diff of the programs'
#       folders): the kernels the change touched, named (~10-25 s a pair of
#       builds; MLAB_AB_SASS=off leaves it out). MLAB_COMMIT names the working tree in the results
#       files (default "worktree").
# A third build, "alt" (MLAB_AB_ALT=COMMIT, prepared like the base, or
# "worktree"; MLAB_AB_ALT_CMAKE its cmake arguments; "worktree" with new's
# cmake arguments and CUDA flags is new's program itself, not built again,
# for a run-time knob measured beside a build's: MLAB_AB_ALT_ENV; so is a
# base "worktree" with new's arguments and flags, for a run-time knob
# against its default: MLAB_AB_BASE_ENV): two changes measured
# apart in one call, the order new, base, alt, alt, base, new, each pair's
# base compared with new and with alt; $OUT then gets ab_alt_1.h5 and
# ab_alt_2.h5 too, eight files, and compare.txt alt's tables (us, per read
# limit) against the base after new's.
# Env: MLAB_AB_NEW_CMAKE, MLAB_AB_BASE_CMAKE: more cmake arguments for the
# new or the base build (e.g. "-DCMAKE_CUDA_FLAGS=-DMLAB_NO_BULK"; split on
# spaces); MLAB_AB_NEW_CUDA_FLAGS, MLAB_AB_BASE_CUDA_FLAGS,
# MLAB_AB_ALT_CUDA_FLAGS: the build's CMAKE_CUDA_FLAGS as one argument, spaces
# kept (e.g. "-DWG_NSTAGE=5 -DWG_PERSIST=0"); MLAB_AB_NEW_ENV, MLAB_AB_BASE_ENV,
# MLAB_AB_ALT_ENV: NAME=VALUE words set for that side's runs only (e.g.
# "MLAB_TMAP=off": a run-time knob measured against its default, the same
# build on both sides with COMMIT "worktree"); MLAB_AB_CASES_GLOB: the cases
# to run (default "*.h5", e.g. "b4_kv*.h5"); MLAB_AB_WORK: where the logs and the recorded cases go
# (default $TMPDIR/mlab-ab-work, outside $OUT: the cases weigh GBs; the logs
# are packed into $OUT/ab_logs.tar.gz). For runs
# without building: MLAB_AB_NEW_BIN, MLAB_AB_BASE_BIN and MLAB_AB_ALT_BIN (the
# mlabench programs), MLAB_AB_CASES (a folder of case files).
# MLAB_AB_RUN_TIMEOUT=S: each run stopped after S seconds (SIGTERM, then
# SIGKILL 10 s later), the call then ended as a failed run (exit 4) with its
# logs packed: a kernel that never finishes blocks its run in a wait no
# signal ends, and without a limit the device tool's own (600 s a call) took
# the whole call and every log with it (perf-notes v63). Default: none.
# The build folders (build-ab-new, build-ab-alt, .ab/COMMIT/build-ab) hold the
# program only (`--target mlabench`, for speed): to run one build's GPU tests,
# `cmake --build DIR` first, or ctest reports the CUDA test programs
# (gpu_q_quant, gpu_tma_layout, gpu_wgmma_maps) "Not Run" (s37, call 1).
# Exit codes: 0 done (whatever the comparison says: read compare.txt), 2 usage
# (unknown commit, COMMIT not prepared, a bad MLAB_AB_RUN_TIMEOUT), 4 a
# build, the cases or a run failed or ran past MLAB_AB_RUN_TIMEOUT (the line
# names the log; ab_logs.tar.gz is written anyway).
set -u
die() { echo "gpu_ab.sh: $2" >&2; exit "$1"; }
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/harness/tree_lib.sh" # mlab_tree_export, mlab_tree_build
verb=${1:-}; commit=${2:-}
[ -n "$verb" ] && [ -n "$commit" ] || die 2 "usage: gpu_ab.sh prepare COMMIT | run COMMIT [mlabench run options...]"
shift 2
case "$commit" in *[!0-9A-Za-z._-]*) die 2 "commit '$commit': letters, digits, '.', '_' and '-' only" ;; esac
base="$root/.ab/$commit"
for w in ${MLAB_AB_NEW_ENV:-} ${MLAB_AB_BASE_ENV:-} ${MLAB_AB_ALT_ENV:-}; do # env would run a word without '='
  case $w in [A-Za-z_]*=*) ;; *) die 2 "MLAB_AB_*_ENV: '$w' is not NAME=VALUE" ;; esac
done
case ${MLAB_AB_RUN_TIMEOUT:-1} in *[!0-9]* | 0*) die 2 "MLAB_AB_RUN_TIMEOUT '$MLAB_AB_RUN_TIMEOUT': whole seconds, at least 1" ;; esac

if [ "$verb" = prepare ]; then
  git -C "$root" rev-parse --verify -q "$commit^{commit}" > /dev/null || die 2 "no commit '$commit' in $root"
  # results files: not needed to build, and they weigh
  mlab_tree_export "$root" "$commit" "$base" papers/reports || die 4 "cannot write the tree of $commit into $base"
  git -C "$root" rev-parse --short "$commit" > "$base/.ab_commit"
  echo "gpu_ab.sh: $commit in .ab/$commit ($(du -sh "$base" | cut -f1)); on the GPU machine: harness/gpu_ab.sh run $commit"
  exit 0
fi
[ "$verb" = run ] || die 2 "unknown verb '$verb' (prepare or run)"
# a build's tree: tree WHAT NAME SUFFIX sets tsrc, tdir, tlabel for NAME ("worktree", or a
# commit prepared in .ab/NAME), or stops (exit 2) saying what WHAT is not prepared
tree() {
  if [ "$2" = worktree ]; then tsrc=$root tdir=$root/build-ab-$3 tlabel="${MLAB_COMMIT:-worktree}${4:-}"
  else
    [ -f "$root/.ab/$2/.ab_commit" ] ||
      die 2 "$1 is not prepared (.ab/$2): run 'harness/gpu_ab.sh prepare $2' in the checkout first"
    tsrc=$root/.ab/$2 tdir=$root/.ab/$2/build-ab tlabel=$(cat "$root/.ab/$2/.ab_commit")
  fi
}
# every build's tree checked before anything starts
[ -n "${MLAB_AB_BASE_BIN:-}" ] || { tree "$commit" "$commit" base; bsrc=$tsrc bdir=$tdir blabel=$tlabel; }
alt=${MLAB_AB_ALT_BIN:-}; altname=${MLAB_AB_ALT:-} # the third build, if any
if [ -z "$alt" ] && [ -n "$altname" ]; then
  case "$altname" in *[!0-9A-Za-z._-]*) die 2 "MLAB_AB_ALT '$altname': letters, digits, '.', '_' and '-' only" ;; esac
  tree "MLAB_AB_ALT=$altname" "$altname" alt -alt; asrc=$tsrc adir=$tdir alabel=$tlabel
fi
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT" || die 4 "cannot create $OUT"
work=${MLAB_AB_WORK:-${TMPDIR:-/tmp}/mlab-ab-work}
mkdir -p "$work" && rm -f "$work"/*.log || die 4 "cannot create $work" # no earlier run's logs in this one's pack
# shellcheck disable=SC2046 # the log names are split on purpose (no spaces: ours)
pack() { tar -czf "$OUT/ab_logs.tar.gz" -C "$work" $(cd "$work" && ls *.log 2> /dev/null) 2> /dev/null || true; }
fail() { pack; die 4 "$1"; }
t0=$(date +%s)
jobs=$(nproc 2> /dev/null || echo 4)
build() { # src dir commit log extra-cmake-args cuda-flags: the builds run two at a time
  local cf=()
  [ -z "${6:-}" ] || cf=("-DCMAKE_CUDA_FLAGS=$6")
  # shellcheck disable=SC2086 # the extra arguments are split on spaces on purpose
  mlab_tree_build "$1" "$2" "$3" "$4" $((jobs / 2 > 1 ? jobs / 2 : 1)) $5 ${cf[@]+"${cf[@]}"}
}
new=${MLAB_AB_NEW_BIN:-}; old=${MLAB_AB_BASE_BIN:-}; pids=()
if [ -z "$new" ]; then
  build "$root" "$root/build-ab-new" "${MLAB_COMMIT:-worktree}" "$work/build_new.log" "${MLAB_AB_NEW_CMAKE:-}" "${MLAB_AB_NEW_CUDA_FLAGS:-}" & pids+=($!)
  new="$root/build-ab-new/mlabench"
fi
# the working tree with new's cmake arguments and CUDA flags is new's program
# itself (or MLAB_AB_NEW_BIN), run another way (MLAB_AB_BASE_ENV, _ALT_ENV):
# not built twice. same_as_new SIDE TREE CMAKE CUDA_FLAGS ENV
same_as_new() {
  [ "$2" = worktree ] && [ "$3" = "${MLAB_AB_NEW_CMAKE:-}" ] && [ "$4" = "${MLAB_AB_NEW_CUDA_FLAGS:-}" ] &&
    echo "gpu_ab.sh: $1 is the new build (the same tree and flags), run with '$5'"
}
if [ -z "$old" ]; then
  if same_as_new base "$commit" "${MLAB_AB_BASE_CMAKE:-}" "${MLAB_AB_BASE_CUDA_FLAGS:-}" "${MLAB_AB_BASE_ENV:-}"; then
    old=$new
  else
    build "$bsrc" "$bdir" "$blabel" "$work/build_base.log" "${MLAB_AB_BASE_CMAKE:-}" "${MLAB_AB_BASE_CUDA_FLAGS:-}" & pids+=($!)
    old="$bdir/mlabench"
  fi
fi
if [ -z "$alt" ] && [ -n "$altname" ]; then
  if same_as_new alt "$altname" "${MLAB_AB_ALT_CMAKE:-}" "${MLAB_AB_ALT_CUDA_FLAGS:-}" "${MLAB_AB_ALT_ENV:-}"; then
    alt=$new
  else
    build "$asrc" "$adir" "$alabel" "$work/build_alt.log" "${MLAB_AB_ALT_CMAKE:-}" "${MLAB_AB_ALT_CUDA_FLAGS:-}" & pids+=($!)
    alt="$adir/mlabench"
  fi
fi
[ -n "$altname" ] || altname=alt
cases=${MLAB_AB_CASES:-}
if [ -z "$cases" ]; then
  cases="$work/cases"
  ( python3 "$root/data/record_competition.py" --out "$cases" > "$work/record.log" 2>&1 ) & pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done # each step's outcome is checked below
[ -x "$new" ] || fail "the working tree did not build: $work/build_new.log"
[ -x "$old" ] || fail "$commit did not build: $work/build_base.log"
[ -z "$alt" ] || [ -x "$alt" ] || fail "MLAB_AB_ALT=$altname did not build: $work/build_alt.log"
if ! ls "$cases"/*.h5 > /dev/null 2>&1; then
  # a folder named by MLAB_AB_CASES holds the cases asked for: one without
  # any is a mistake, never filled with generated cases in their place
  [ -z "${MLAB_AB_CASES:-}" ] || fail "MLAB_AB_CASES=$MLAB_AB_CASES holds no case file (*.h5)"
  # no PyTorch CUDA here: the generated suite
  "$new" gen --suite -o "$cases" > "$work/gen.log" 2>&1 || fail "no cases: $work/record.log, $work/gen.log"
fi
glob=${MLAB_AB_CASES_GLOB:-*.h5}
# shellcheck disable=SC2206 # the glob is expanded on purpose
picked=("$cases"/$glob)
[ -e "${picked[0]}" ] || fail "no case in $cases matches '$glob'"
echo "gpu_ab.sh: built and recorded in $(($(date +%s) - t0)) s; ${#picked[@]} cases"
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--max-time 0.15)
limit=() # MLAB_AB_RUN_TIMEOUT: timeout(1) before each run
[ -z "${MLAB_AB_RUN_TIMEOUT:-}" ] || limit=(timeout -k 10 "$MLAB_AB_RUN_TIMEOUT")
# each step a label and a run number (the program by the label: a path may hold spaces)
steps=("new 1" "base 1" "base 2" "new 2")
[ -z "$alt" ] || steps=("new 1" "base 1" "alt 1" "alt 2" "base 2" "new 2")
for step in "${steps[@]}"; do
  read -r lab k <<< "$step"
  case $lab in
    new) bin=$new senv=${MLAB_AB_NEW_ENV:-} ;;
    base) bin=$old senv=${MLAB_AB_BASE_ENV:-} ;;
    *) bin=$alt senv=${MLAB_AB_ALT_ENV:-} ;;
  esac
  # shellcheck disable=SC2086 # NAME=VALUE words, split on spaces on purpose
  env $senv ${limit[@]+"${limit[@]}"} "$bin" run --require-gpu --quiet --label "$lab" "${opts[@]}" "${picked[@]}" \
    -o "$OUT/ab_${lab}_$k.h5" > "$work/run_${lab}_$k.log" 2>&1
  rc=$?
  if [ ${#limit[@]} -gt 0 ] && { [ $rc = 124 ] || [ $rc = 137 ]; }; then
    fail "the $lab run $k did not end within MLAB_AB_RUN_TIMEOUT=${MLAB_AB_RUN_TIMEOUT} s (a kernel that never finishes?): $work/run_${lab}_$k.log"
  fi
  [ $rc = 0 ] || fail "the $lab run $k failed: $work/run_${lab}_$k.log"
  echo "gpu_ab.sh: $lab run $k done ($(($(date +%s) - t0)) s)"
done
{
  for k in 1 2; do
    echo "== pair $k: $commit (base) against the working tree (new)"
    "$new" compare "$OUT/ab_base_$k.h5" "$OUT/ab_new_$k.h5"
    echo "(compare exit $?)"
    if [ -n "$alt" ]; then
      echo "== pair $k: $commit (base) against $altname (alt)"
      "$new" compare "$OUT/ab_base_$k.h5" "$OUT/ab_alt_$k.h5"
      echo "(compare exit $?)"
    fi
  done
  # both pairs as one table, a case by variant (the report READMEs' table),
  # in us and then as ratios to each run's own read limit (a drift of the
  # whole machine between the runs, which moves the read kernel too, cancels
  # there); with an alt build, its tables against the base follow
  for side in new ${alt:+alt}; do
    for rl in "" --per-read-limit; do # $rl unquoted: empty is no argument
      echo "== both pairs, $([ -z "$rl" ] && echo "median us" || echo "median / the run's read limit"): base -> $side, base -> $side (changes)"
      python3 "$root/harness/tools/ab_table.py" --mlabench "$new" $rl "$OUT/ab_base_1.h5" "$OUT/ab_${side}_1.h5" \
        "$OUT/ab_base_2.h5" "$OUT/ab_${side}_2.h5"
      echo "(ab_table exit $?)"
    done
  done
  # which kernels the change touched: the builds' SASS compared kernel by
  # kernel (harness/nv_sass.sh, over the folders of the programs run)
  [ "${MLAB_AB_SASS:-on}" = off ] || for b in "$new" ${alt:+"$alt"}; do
    echo "== kernels: $commit (base) against $([ "$b" = "$new" ] && echo "the working tree (new)" || echo "$altname (alt)"), by their SASS"
    bash "$root/harness/nv_sass.sh" --diff "$(dirname "$old")" "$(dirname "$b")"
    echo "(nv_sass exit $?: 0 the same, 1 kernels differ, 2 no NVIDIA kernels in a folder, 77 no cuobjdump)"
  done
} > "$OUT/compare.txt" 2>&1
pack
grep -E "^== |^geomean|^summary|^nv_sass|^[|] geomean" "$OUT/compare.txt"
exit 0
