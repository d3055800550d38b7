#!/usr/bin/env bash
# device-queue.sh: the device calls prepared but not yet run, tracked so that
# a session without a GPU leaves them runnable for the next one (two
# sessions' untracked call scripts were lost with their checkouts). Each
# call is one `run` of the device tool (`bash papers/device-queue.sh CALL`,
# in the repository root of the copied tree; nvidia-h200), writes at most 8
# files under $OUT, and is weighed in papers/perf-notes.md (the entry named
# beside it) with its prediction before it runs. A call that has run and been
# written up leaves this file in the commit that writes it up. flush and
# suite remain (suite is run again each time the kernels or the harness's
# GPU side change: last in the forty-sixth session, papers/reports/
# h200-2026-12-05f); ring ran in the forty-sixth session (perf-notes v49,
# papers/reports/h200-2026-12-05e) and left; trace in the forty-fourth
# (v47, -05d); tests, hyb, direct, mx, lean and sweep in the forty-third (v46).
# The forty-seventh session (v50) got no machine for flush in eleven starts.
#
#   flush   (~5 min) the cold protocol's flush and a split call's merge:
#           the combine's first load after its grid wait comes back 0.7-0.9
#           us after it in every trace (v35-v47), 0.13 in every
#           microbenchmark; the runner's flush (a memset: L2 full of dirty
#           lines) is what no microbenchmark traced beside a real decode. A
#           trace of fp8_wgmma_qrow and bf16_wgmma at 4 x 1024 and 32 x 1024
#           under MLAB_FLUSH=memset (the default) and =load (L2 full of clean
#           lines) and under the memset with no tensor map (MLAB_TMAP=off:
#           every tile by cp.async, no async-proxy copy in the decode: v35
#           left the first load's 0.6-0.9 us to "the primary's memory made
#           visible", its microbenchmark's writer having streamed by plain
#           loads), then an A/B of the two flushes (gpu_ab.sh worktree,
#           MLAB_AB_NEW_ENV=MLAB_FLUSH=load: one build, run both ways; three
#           variants, the 8 cases).
#           $OUT: trace_summary.txt, trace.tar.gz, gpu_ab.sh's six files.
#           After it, here: a report folder of the four results files, the
#           summaries in its README.md (report folders keep no logs or text
#           files: test_reports), perf-notes v47's outcome
#   suite   (~6 min) the suite of this tree: harness/gpu_session.sh (the
#           build, every test but the slow ones, GPU tests included, the
#           awkward cases validated, the 8 recorded cases with every variant
#           and the peers whose packs the tree carries: here first
#           `PYVERS=3.12 PYTHON=build/venv/bin/python bash
#           harness/peers/pack_flashinfer.sh .peers` (that Python needs torch:
#           `build/venv/bin/python -m pip install torch numpy`, ~5 min; the
#           pack ~10 min on 2 cores) and `bash harness/peers/pack_flashmla.sh
#           .peers`, then
#           carry [".peers"] (64 MiB in all: leave the wheels of other Pythons
#           out)); MLAB_COMMIT=<hash> names the commit (the copy has no .git).
#           After it, here: a report folder (harness/report_lib.sh), the
#           README's table (harness/tools/readme_table.py build/mlabench
#           FILE.h5), claims.md. $OUT: gpu_session.sh's files
#
# Exit codes: 0 the call ran (read its files: a test may have failed); 2
# usage; 4 a build failed (the log in $OUT).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) && cd "$root" || exit 2
die() { echo "device-queue.sh: $2" >&2; exit "$1"; }
case ${1:-} in
flush)
  base=$OUT
  for cfg in memset:MLAB_FLUSH=memset load:MLAB_FLUSH=load "notmap:MLAB_FLUSH=memset MLAB_TMAP=off"; do
    fl=${cfg%%:*} env_words=${cfg#*:}
    mkdir -p "$base/trace-$fl"
    OUT=$base/trace-$fl MLAB_TRACE_ENV=$env_words bash harness/gpu_trace.sh b4_kv1024 b32_kv1024 -- \
      --variants fp8_wgmma_qrow,bf16_wgmma --max-time 0.05 || die 4 "gpu_trace.sh ($env_words) failed"
    { echo "== $env_words"; cat "$base/trace-$fl/trace_summary.txt"; } >> "$base/trace_summary.txt"
  done
  (cd "$base" && tar -czf trace.tar.gz trace-* && rm -rf trace-*)
  OUT=$base MLAB_AB_SASS=off MLAB_COMMIT=${MLAB_COMMIT:-worktree} MLAB_AB_NEW_ENV=MLAB_FLUSH=load \
    bash harness/gpu_ab.sh run worktree --max-time 0.1 --variants fp8_wgmma_qrow,bf16_wgmma,mxfp4_qrow_lazy ||
    die 4 "gpu_ab.sh failed"
  grep "^==\|^TRACE\|combine" "$base/trace_summary.txt"
  head -60 "$base/compare.txt"
  ;;
suite)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "suite: MLAB_COMMIT=<hash> names the commit the results are of"
  bash harness/gpu_session.sh cuda || die 4 "gpu_session.sh failed (the build: its log in \$OUT)"
  ;;
*) die 2 "usage: papers/device-queue.sh flush|suite (the calls: this file's head)" ;;
esac
