#!/usr/bin/env bash
# gpu_trace.sh: where a call's time goes, for a few recorded cases, in one
# step on the GPU machine: a trace build of the working tree (-DMLAB_TRACE
# -DMLAB_WG_PROF: every kernel of a call records %globaltimer at its phases,
# the wgmma decodes their consumers' cycles too; README "Where a call's time
# goes"), each named case run once with it, and the logs summed up by
# harness/tools/trace_summary.py: per phase min / median / max
# (trace_summary.txt), one Markdown row a variant and case (trace_table.md,
# the table a report folder carries) and one a split call's merge
# (trace_merge.md: `trace_summary.py --merge`).
#
#   harness/gpu_trace.sh CASE... [-- mlabench run options]
#       CASE: a recorded case's name without its seed, e.g. b4_kv1024 (the
#       file CASE_s*.h5 or CASE.h5 of the cases folder); the options go to
#       every `mlabench run` (default --max-time 0.05; e.g. --variants
#       fp8_wgmma,bf16_wgmma). $OUT (default ./out) gets trace_CASE.log for
#       each case, trace_summary.txt, trace_table.md and trace_merge.md.
# Env: MLAB_TRACE_CMAKE: more cmake arguments (split on spaces, e.g.
# -DMLAB_ONE_LAUNCH=ON); MLAB_TRACE_CUDA_FLAGS: more CUDA flags beside the
# trace's (one argument); MLAB_TRACE_ENV: NAME=VALUE words set for the runs
# (e.g. MLAB_AMAX=inline); MLAB_TRACE_BIN: a trace-built mlabench to use
# instead of building; MLAB_AB_CASES: a folder of case files (default: the
# competition's, recorded by data/record_competition.py into
# $MLAB_AB_WORK/cases, default $TMPDIR/mlab-ab-work/cases, where
# harness/gpu_ab.sh records them too, and reused when there; the
# generated suite where PyTorch cannot). A trace build's timings are a few
# percent off the plain build's: its results files are not kept.
# Exit codes: 0 done, 2 usage, 4 the build, the cases, a run or the summary
# failed, or a CASE matches no file (the line names it or its log).
set -u
die() { echo "gpu_trace.sh: $2" >&2; exit "$1"; }
root=$(cd "$(dirname "$0")/.." && pwd)
names=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in *[!0-9A-Za-z._-]* | -*) die 2 "case '$1': letters, digits, '.', '_' and '-' only" ;; esac
  names+=("$1"); shift
done
[ $# -gt 0 ] && shift # the --
[ ${#names[@]} -gt 0 ] || die 2 "usage: gpu_trace.sh CASE... [-- mlabench run options] (e.g. b4_kv1024 b64_kv1024)"
for w in ${MLAB_TRACE_ENV:-}; do # env would run a word without '='
  case $w in [A-Za-z_]*=*) ;; *) die 2 "MLAB_TRACE_ENV: '$w' is not NAME=VALUE" ;; esac
done
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--max-time 0.05)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT" || die 4 "cannot create $OUT"
work=${MLAB_AB_WORK:-${TMPDIR:-/tmp}/mlab-ab-work} # where harness/gpu_ab.sh keeps its logs and cases too
mkdir -p "$work" || die 4 "cannot create $work"
bin=${MLAB_TRACE_BIN:-}
pid=
if [ -z "$bin" ]; then
  bdir=$root/build-trace
  rm -f "$bdir/mlabench" # a stale program must not pass for a failed build
  # shellcheck disable=SC2086 # the extra arguments are split on spaces on purpose
  ( cmake -S "$root" -B "$bdir" -G Ninja -DMLAB_GPU="${MLAB_GPU:-cuda}" -DCMAKE_BUILD_TYPE=Release \
      ${MLAB_TRACE_CMAKE:-} "-DCMAKE_CUDA_FLAGS=-DMLAB_TRACE -DMLAB_WG_PROF ${MLAB_TRACE_CUDA_FLAGS:-}" \
      > "$work/build_trace.log" 2>&1 && cmake --build "$bdir" --target mlabench >> "$work/build_trace.log" 2>&1 ) &
  pid=$!
  bin=$bdir/mlabench
fi
cases=${MLAB_AB_CASES:-}
if [ -z "$cases" ]; then
  cases=$work/cases
  ls "$cases"/*.h5 > /dev/null 2>&1 || python3 "$root/data/record_competition.py" --out "$cases" > "$work/record.log" 2>&1
fi
[ -z "$pid" ] || wait "$pid"
[ -x "$bin" ] || die 4 "the trace build failed: $work/build_trace.log"
if ! ls "$cases"/*.h5 > /dev/null 2>&1; then
  # MLAB_AB_CASES names the cases asked for: a folder without any is a mistake
  [ -z "${MLAB_AB_CASES:-}" ] || die 4 "MLAB_AB_CASES=$MLAB_AB_CASES holds no case file (*.h5)"
  # no PyTorch CUDA here: the generated suite
  "$bin" gen --suite -o "$cases" > "$work/gen.log" 2>&1 || die 4 "no cases: $work/record.log, $work/gen.log"
fi
logs=()
for n in "${names[@]}"; do
  f=
  for g in "$cases/${n}"_s*.h5 "$cases/$n.h5"; do [ -e "$g" ] && { f=$g; break; }; done
  [ -n "$f" ] || die 4 "no case $n in $cases (${n}_s*.h5 or $n.h5)"
  log=$OUT/trace_$n.log
  # shellcheck disable=SC2086 # the NAME=VALUE words are split on purpose
  env ${MLAB_TRACE_ENV:-} "$bin" run --quiet "${opts[@]}" -o "$work/trace_$n.h5" "$f" > "$work/trace_$n.out" 2> "$log" ||
    die 4 "the run of $n failed: $log"
  rm -f "$work/trace_$n.h5"
  logs+=("${log##*/}") # named from $OUT: the summaries go into report folders as they are
done
summ() { (cd "$OUT" && python3 "$root/harness/tools/trace_summary.py" "$@"); }
summ "${logs[@]}" > "$OUT/trace_summary.txt" 2>&1 ||
  die 4 "trace_summary.py failed: $OUT/trace_summary.txt (was the program built with -DMLAB_TRACE?)"
summ --table "${logs[@]}" > "$OUT/trace_table.md" 2>&1 || die 4 "trace_summary.py --table failed: $OUT/trace_table.md"
summ --merge "${logs[@]}" > "$OUT/trace_merge.md" 2>&1 || die 4 "trace_summary.py --merge failed: $OUT/trace_merge.md"
echo "gpu_trace.sh: ${#logs[@]} cases traced: $OUT/trace_summary.txt, $OUT/trace_table.md"
