#!/usr/bin/env bash
# device-queue.sh: the device calls prepared but not yet run, tracked so that
# a session without a GPU leaves them runnable for the next one (two
# sessions' untracked call scripts were lost with their checkouts). Each
# call is one `run` of the device tool (`bash papers/device-queue.sh CALL`,
# in the repository root of the copied tree; nvidia-h200), writes at most 8
# files under $OUT, and is weighed in papers/perf-notes.md (the entry named
# beside it) with its prediction before it runs. A call that has run and been
# written up leaves this file in the commit that writes it up. The order
# planned: hyb, direct, lean (trace where their outcome needs explaining); then,
# with a winner landed (or none), suite (which runs the
# GPU tests too: tests is for a session that runs no suite); then sweep.
#
#   tests   (~4 min) the whole GPU test list of this tree, Release (ctest -L
#           gpu; the peers' GPU test apart): never run on a GPU since
#           2093ccb (the runner's split_dram_of, the negative controls
#           written once, head pairs from combine_only decodes, the launch
#           report mla_params.ran, gpu_kernel_footprint). $OUT: ctest.log,
#           build.log, smi.txt
#   hyb     (~6 min) perf-notes v45: the MXFP4 conversion shared with the
#           consumers (WG_MX_HYB, P = 7 panels by the producers: new; P = 6:
#           alt) against the default build, mxfp4_wgmma, mxfp4_wgmma_qrow and
#           mxfp4_qrow_lazy on the 8 recorded cases (harness/gpu_ab.sh, order
#           new base alt alt base new), then both knob builds' MXFP4 GPU tests
#           (every fixture validated with poisoned gaps, the negative
#           controls). $OUT: gpu_ab.sh's 8 files; the tests' summary at the
#           end of compare.txt, their logs in ab_logs.tar.gz
#   direct  (~6 min) perf-notes v45: first the ceiling of its loads alone
#           (papers/microbench/mx_direct_read.cu: the producers' map against a
#           stream of the same bytes, kept in L1 or not, L2 prefetch 0-4 own
#           tiles ahead, 256 x 8192's and 64 x 8192's rows); then the MXFP4
#           producers' raw bytes from global memory (WG_MX_DIRECT: new; with
#           WG_MX_HYB: alt) against the default build, the same decodes, cases
#           and tests as hyb. $OUT: as hyb, the microbenchmark's tables at the
#           end of compare.txt
#   mx      (~7 min) hyb and direct in one call where device time is short
#           (one base build and one start fewer): the microbenchmark as
#           in direct, then WG_MX_HYB (P = 7: new) and WG_MX_DIRECT +
#           WG_MX_HYB (alt) against the default build, the same decodes,
#           cases and tests as hyb. $OUT: as direct
#   lean    (~6 min) perf-notes v45: bf16_wgmma's decode with registers
#           for two blocks an SM (WG_B16_LEAN: 80 a thread at launch, 168
#           before; a head pair's combine uncapped: new; the same build with
#           every combine uncapped, MLAB_COMBINE_CAP=off, so the combine's
#           blocks fit beside the decode's wherever it fills the SMs: alt)
#           against the default build, bf16_wgmma and (a control the knob
#           leaves alone) fp8_wgmma_qrow on the 8 recorded cases; then the
#           knob build's bf16 GPU tests. $OUT: as hyb
#   trace   (~8 min) where the time goes with each knob (harness/gpu_trace.sh):
#           the producers' phases (TP lines: raw wait, empty wait,
#           converting, the reissue barrier) and the consumers' (TW: Q.K,
#           which holds WG_MX_HYB's conversion, softmax, P.V) of
#           mxfp4_wgmma_qrow at 64 x 8192 and 256 x 8192 with the default
#           build, WG_MX_HYB and WG_MX_DIRECT + WG_MX_HYB; bf16_wgmma's short
#           calls (4 x 1024, 4 x 8192, 32 x 1024: the bf16 bar's worst
#           ratios, never traced since v38) with the default build and 4 x
#           1024 with WG_B16_LEAN (where its combine's blocks start). $OUT:
#           trace_summary.txt (the summaries), trace.tar.gz (the logs, tables)
#   suite   (~6 min) the suite of this tree: harness/gpu_session.sh (the
#           build, every test but the slow ones, GPU tests included, the
#           awkward cases validated, the 8 recorded cases with every variant
#           and the peers whose packs the tree carries: here first
#           `PYTHON=build/venv/bin/python bash harness/peers/pack_flashinfer.sh
#           .peers` and `bash harness/peers/pack_flashmla.sh .peers`, then
#           carry [".peers"] (64 MiB in all: leave the wheels of other Pythons
#           out)); MLAB_COMMIT=<hash> names the commit (the copy has no .git).
#           After it, here: a report folder (harness/report_lib.sh), the
#           README's table (harness/tools/readme_table.py build/mlabench
#           FILE.h5), claims.md. $OUT: gpu_session.sh's files
#   sweep   (~3 min) perf-notes v43: bf16_wgmma's split rule out of sample,
#           4 shapes where its head-pair share and v42's disagree (60 x 1024,
#           40 x 6144, 72 x 3072, 80 x 4096), the rule against counts 1..16
#           forced (harness/tools/split_sweep.py), then `fit --pair 70`.
#           $OUT: sweep.txt, sweep.tar.gz (the results files and exports)
#
# Exit codes: 0 the call ran (read its files: a test may have failed); 2
# usage; 4 a build failed (the log in $OUT).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) && cd "$root" || exit 2
jobs=$(nproc)
export PATH=$PATH:/usr/local/cuda/bin # nvcc for the microbenchmarks
die() { echo "device-queue.sh: $2" >&2; exit "$1"; }
build_gpu() { # DIR [cmake args]: the whole tree (tests too), Release, CUDA; log DIR.log in $OUT
  local dir=$1
  shift
  { cmake -S . -B "$dir" -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release "$@" &&
    cmake --build "$dir" -j"$jobs"; } > "$OUT/$(basename "$dir").log" 2>&1 ||
    { tail -30 "$OUT/$(basename "$dir").log"; die 4 "build of $dir failed ($(basename "$dir").log)"; }
}
case ${1:-} in
tests)
  { nvidia-smi; } > "$OUT/smi.txt" 2>&1
  build_gpu build-gpu
  mv "$OUT/build-gpu.log" "$OUT/build.log"
  ctest --test-dir build-gpu -L gpu -E test_peer_gpu -j4 --timeout 150 --output-on-failure > "$OUT/ctest.log" 2>&1
  echo "ctest rc=$?"
  grep -E 'tests passed|Failed|\*\*\*|Not Run|Skipped' "$OUT/ctest.log" | tail -40
  ;;
hyb | direct | mx | lean)
  v=mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy tests='validate_awkward|validate_splits|validate_suite|rising|mxfp4|mx_'
  work=${MLAB_AB_WORK:-${TMPDIR:-/tmp}/mlab-ab-work}
  sides="new alt"
  case $1 in
  hyb) new="-DWG_MX_HYB=1" alt="-DWG_MX_HYB=1 -DWG_MX_HYB_P=6" ;;
  direct) new="-DWG_MX_DIRECT=1" alt="-DWG_MX_DIRECT=1 -DWG_MX_HYB=1" ;;
  mx) new="-DWG_MX_HYB=1" alt="-DWG_MX_DIRECT=1 -DWG_MX_HYB=1" ;;
  lean) # alt: the same build, run with every combine uncapped
    new="-DWG_B16_LEAN=1" alt="-DWG_B16_LEAN=1" sides=new v=bf16_wgmma,fp8_wgmma_qrow
    tests='validate_awkward|validate_splits|validate_suite|pairs|bf16_wgmma|combine_cap'
    export MLAB_AB_ALT_ENV=MLAB_COMBINE_CAP=off
    ;;
  esac
  if [ "$1" = direct ] || [ "$1" = mx ]; then # the loads' own ceiling first (a few seconds; .txt: gpu_ab.sh clears the *.log)
    mkdir -p "$work"
    { nvcc -O3 -gencode arch=compute_90a,code=sm_90a -o "$work/mx_direct_read" papers/microbench/mx_direct_read.cu &&
      for rows in 2097152 524288; do echo "== rows $rows"; "$work/mx_direct_read" "$rows"; done; } \
      > "$work/mx_direct_read.txt" 2>&1
    cat "$work/mx_direct_read.txt"
  fi
  MLAB_AB_WORK=$work MLAB_AB_NEW_CUDA_FLAGS="$new" MLAB_AB_ALT=worktree MLAB_AB_ALT_CUDA_FLAGS="$alt" \
    bash harness/gpu_ab.sh run worktree --variants "$v" || die 4 "gpu_ab.sh failed (ab_logs.tar.gz)"
  tail -60 "$OUT/compare.txt"
  for side in $sides; do # the knob builds' own GPU tests (gpu_ab.sh built their programs only)
    log="$work/tests_$side.log"
    if cmake --build "build-ab-$side" -j"$jobs" > "$log" 2>&1; then
      ctest --test-dir "build-ab-$side" -L gpu -R "$tests" -j4 --timeout 150 --output-on-failure >> "$log" 2>&1
      echo "ctest ($side) rc=$?"
    else
      echo "build of build-ab-$side's tests failed"
    fi
    { echo "== $side build's GPU tests ($tests)"; grep -E 'tests passed|Failed|\*\*\*|Not Run' "$log" | tail -20; } |
      tee -a "$OUT/compare.txt"
  done
  if [ "$1" = direct ] || [ "$1" = mx ]; then
    { echo "== papers/microbench/mx_direct_read.cu"; cat "$work/mx_direct_read.txt"; } >> "$OUT/compare.txt"
  fi
  (cd "$work" && tar -czf "$OUT/ab_logs.tar.gz" ./*.log)
  ;;
trace)
  base=$OUT
  # name;CUDA flags;variant;cases (the same flags one after another reuse the trace build)
  for cfg in "mx-default;;mxfp4_wgmma_qrow;b64_kv8192 b256_kv8192" \
             "b16-default;;bf16_wgmma;b4_kv1024 b4_kv8192 b32_kv1024" \
             "b16-lean;-DWG_B16_LEAN=1;bf16_wgmma;b4_kv1024" \
             "mx-hyb;-DWG_MX_HYB=1;mxfp4_wgmma_qrow;b64_kv8192 b256_kv8192" \
             "mx-direct-hyb;-DWG_MX_DIRECT=1 -DWG_MX_HYB=1;mxfp4_wgmma_qrow;b64_kv8192 b256_kv8192"; do
    IFS=';' read -r name flags variant cases <<< "$cfg"
    mkdir -p "$base/trace-$name"
    # shellcheck disable=SC2086 # the cases are words
    OUT=$base/trace-$name MLAB_TRACE_CUDA_FLAGS=$flags bash harness/gpu_trace.sh $cases -- \
      --variants "$variant" --max-time 0.05 || die 4 "gpu_trace.sh ($name) failed"
    { echo "== $name ($variant; ${flags:-the default build})"; cat "$base/trace-$name/trace_summary.txt"; } \
      >> "$base/trace_summary.txt"
  done
  (cd "$base" && tar -czf trace.tar.gz trace-* && rm -rf trace-*)
  cat "$base/trace_summary.txt"
  ;;
suite)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "suite: MLAB_COMMIT=<hash> names the commit the results are of"
  bash harness/gpu_session.sh cuda
  ;;
sweep)
  build_gpu build-gpu
  cases=$(mktemp -d)
  for s in 60x1024 40x6144 72x3072 80x4096; do
    build-gpu/mlabench gen --quiet --batch "${s%x*}" --kv-len "${s#*x}" --seed 7 -o "$cases/b${s%x*}_kv${s#*x}.h5" ||
      die 4 "gen $s failed"
  done
  python3 harness/tools/split_sweep.py run --out "$OUT/sweep" --mlabench build-gpu/mlabench --variants bf16_wgmma \
    --counts 1,2,4,8,16 "$cases"/*.h5 > "$OUT/sweep.txt" 2>&1
  echo "sweep rc=$?" | tee -a "$OUT/sweep.txt"
  # the H200's 132 SMs (the fits of v42, v43 were made with them)
  MLAB_SPLIT_PICK=build-gpu/mlab_split_pick python3 harness/tools/split_sweep.py fit "$OUT/sweep" --sms 132 \
    --free 0 --merge 100 --pair 70 >> "$OUT/sweep.txt" 2>&1
  tar -czf "$OUT/sweep.tar.gz" -C "$OUT" sweep && rm -rf "$OUT/sweep"
  cat "$OUT/sweep.txt"
  ;;
*) die 2 "usage: papers/device-queue.sh tests|hyb|direct|mx|lean|trace|suite|sweep (the calls: this file's head)" ;;
esac
