#!/usr/bin/env bash
# device-queue.sh: the device calls prepared but not yet run, tracked so that
# a session without a GPU leaves them runnable for the next one (two
# sessions' untracked call scripts were lost with their checkouts). Each
# call is one `run` of the device tool (`bash papers/device-queue.sh CALL`,
# in the repository root of the copied tree; nvidia-h200), writes at most 8
# files under $OUT, and is weighed in papers/perf-notes.md (the entry named
# beside it) with its prediction before it runs. A call that has run and been
# written up leaves this file in the commit that writes it up (`git log -p --
# papers/device-queue.sh` finds it); the calls below stay because they are
# run again: suite each time the kernels or the harness's GPU side change,
# the others for the next change to what they measure. Where and when each
# ran: papers/perf-notes.md (the versions named below) and the report
# folders it cites (papers/reports/*/README.md: What, When, Commit, Machine).
#
# The copy's size: the device tool takes 64 MiB in all. The tree is ~46 MiB
# (the report folders ~39, capped at 52 by test_reports), both peers' packs
# and their wheels ~8 (.peers), a carried program ~5 (xz): carry .peers only
# for a call that runs the peers (suite, oos). Past the cap, thin older
# report folders' figures, or carry one pack: FlashInfer's and its wheels,
# ".peers/flashinfer-0.7.2-mla-sm90a.tar.xz", ".peers/wheels",
# ".peers/INSTALL.txt".
#
#   suite   (~10 min) the suite of this tree: harness/gpu_session.sh (the
#           build, every test but the slow ones, GPU tests included, the
#           awkward cases validated, the 8 recorded cases with every variant
#           and the peers whose packs the tree carries: here first
#           `PYVERS=3.12 PYTHON=build/venv/bin/python bash
#           harness/peers/pack_flashinfer.sh .peers` (that Python needs torch:
#           `build/venv/bin/python -m pip install torch numpy`, ~5 min; the
#           pack ~10 min on 2 cores) and `bash harness/peers/pack_flashmla.sh
#           .peers`, then
#           carry the packs (64 MiB in all: one peer's, above; no wheels
#           of other Pythons)); MLAB_COMMIT=<hash> names the commit (the copy
#           has no .git). The benchmark runs before the tests and the tests
#           stop at MLAB_DEADLINE (570 s: the device tool kills a call at
#           600): with both peers the whole session took over 600 s on a
#           fresh H100 (build ~2, tests ~4, benchmark ~4 min), and the
#           fiftieth session's first call lost its benchmark so. Where the
#           tests were stopped the summary says after how many; run them
#           whole in a second call on the warm machine (the build kept):
#           `cd build-gpu && ctest -LE slow -j8`. Where the benchmark was
#           stopped (its summary says so), the same call again on the warm
#           machine with MLAB_RESUME=1 finishes it: the cases done are kept
#           (run --resume build-gpu/results-last.h5).
#           After it, here: a report folder (harness/report_lib.sh), the
#           README's table (harness/tools/readme_table.py build/mlabench
#           FILE.h5), claims.md. $OUT: gpu_session.sh's files
#   oos     (~7 min) beyond the competition's 8: the six main decodes and
#           both peers (carry .peers) on shapes no rule was fitted to: the
#           three ragged batches of v15's (h200-2026-12-01zl: the same
#           tensors, gen --kv-lens with its seeds: compare pairs them), six
#           uniform shapes (batch 1, 16, 128 x kv 2048, 16384) and two MTP
#           shapes (q_seq_len 2: batch 8, 64 x kv 4096); each run under its
#           own timeout, all within 570 s of the start (SIGTERM: the rows
#           measured kept). Weighed in
#           perf-notes v59. $OUT: ragged.h5, oos.h5, mtp.h5, oos.log
#   mtpmx   (~5 min) the six MTP units (bf16_wgmma's; the fp8 and MXFP4 wgmma
#           decodes' M32 (fp8's since v65), mxfp4_wgmma's per tensor since the fifty-eighth
#           session: a consumer's tiles every other, both query rows as N =
#           32) validated and timed:
#           mlabench built; q2_edge and q2_long validated with MLAB_MTP on,
#           off and 64 splits, the overread control for each (exit 5
#           wanted); then on against off, ABBA, at 8, 64 x 4096, 8192,
#           q_seq_len 2; the q_seq_len 1 calls of the same KV (8, 64 x 4096,
#           8192) once; FlashInfer beside the q_seq_len 2 calls where time
#           is left (carry .peers). Ran on an H100 in the fifty-seventh session (v60:
#           h100-2026-12-06l), before fp8_wgmma's M32 (v65, measured on an
#           H200 only); next on an H100 (v72: fp8_wgmma a block a row takes
#           1.37x fp8_wgmma_qrow's time at 64 x 4096 q_seq_len 2 there, and
#           the rule keeps its M32 off on that GPU; beside it, MTP off, the fp8
#           decodes with MLAB_KV_EVICT=off: whether the row's second block
#           misses the first's evict_first tiles). $OUT:
#           mtpmx_{on,off}_{1,2}.h5, mtpmx_q1.h5, mtpmx_evoff.h5, mtpmx_peer.h5, mtpmx.log
#   mtprule (~8 min) the MTP rule by the GPU's DRAM (splits.h mlab_mtp_pays,
#           v65: the fp8 decodes' M32 landed, on by default on a fast DRAM
#           past 1 L2 of KV, bf16's line 0.3 L2s there): the build with its
#           tests; the six MTP decodes at 8, 64 x 4096, 8192, q_seq_len 2,
#           every test but the slow ones first (stopped 550 s from the
#           start), then MLAB_MTP unset (auto)
#           against off, ABBA (MTPRULE_STEPS: fewer; each row's grid says
#           which ran: an item's units halve it). Prediction on an H200
#           (v65's on/off pairs): auto = on where the rule says so (bf16
#           every shape, fp8 the 64-item ones, MXFP4 all but 8 x 4096), off
#           elsewhere; on an H100 the fp8 decodes never, bf16 the 64-item
#           ones; since v73 on an H100 fp8_wgmma (Q per tensor, not the
#           `_qrow` decode) the 64-item ones too. Also the results'
#           gpu_mem_bus_bits (6016 on an H200, as
#           CUDA reports it there, v67; 5120 on an H100, v68) and unit column (item where the unit ran; the grid tests
#           check it). Last (v73's question: why fp8_wgmma a block a row
#           took 1.32x its q_seq_len 1 time at 64 x 4096 on an H100, the
#           `_qrow` decode 1.01x), MLAB_MTP=off at 64 x 4096 q_seq_len 2,
#           the two fp8 decodes: 1 split (a wave of 128 blocks: fp8_wgmma's
#           one-wave kernel, ONEU) against 2 (256 units: the persistent
#           kernel), into mtprule_oneu_{1,2}.h5. With MLAB_QUEUE_BIN (below)
#           no build and no ctest: the MTP tests' checks by hand instead
#           (mtp_validate and the grid tests' unit check) into ctest.log,
#           ~2-3 minutes: for a session with ~5 device minutes left. $OUT:
#           mtprule_{auto,off}_{1,2}.h5, mtprule_oneu_{1,2}.h5, mtprule.log,
#           ctest.log (build.log where built)
#   mtpsplit (~3 min) the split rule under the MTP units (it counts an
#           item's unit as one row's, mlab_unit_rows; v60, an H100: its
#           picks within 1% of the fastest power of two): the
#           three MTP decodes with MLAB_MTP=on at 8, 64 x 4096, 8192,
#           q_seq_len 2, by the rule and with 1, 2, 4, 8, 16 splits
#           forced (validated first each time; 32 was slowest in v60).
#           MTPSPLIT_BATCH, MTPSPLIT_KV, MTPSPLIT_VARIANTS: other shapes
#           and decodes (v74's question: at 64 x 512 and 64 x 1024 the rule
#           gave the unit 1 split, 64 blocks on 132 SMs, and the unit lost
#           7-23% to a block a row's one wave: would 2 splits win?
#           MTPSPLIT_BATCH=32,64 MTPSPLIT_KV=512,1024,2048
#           MTPSPLIT_VARIANTS=bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow). $OUT:
#           mtpsplit_{rule,1,..,16}.h5, mtpsplit.log
#   mxtrace (~3 min) where an M32 block's tile goes (v60: MTP took
#           mxfp4_qrow_lazy's 64 x 8192 q_seq_len 2 to 1.39x of q_seq_len 1's
#           time, not the 1.10-1.25x predicted): a trace build (-DMLAB_TRACE
#           -DMLAB_WG_PROF), then harness/gpu_trace.sh on 64 x 8192 q_seq_len
#           2 with MLAB_MTP on and off and on 64 x 8192 q_seq_len 1, the two
#           MXFP4 _qrow decodes: consumer 0's cycles a tile (wait, Q.K,
#           softmax, P.V) against the one-row block's. MXTRACE_BATCH,
#           MXTRACE_KV, MXTRACE_VARIANTS: another shape and other decodes
#           (e.g. MXTRACE_BATCH=64 MXTRACE_KV=1024
#           MXTRACE_VARIANTS=bf16_wgmma: where the unit's 2.6 us of fixed
#           cost above a block a row's go, v74's kv_slopes reading). $OUT:
#           {on,off,q1}_trace_{table.md,summary.txt}, build_trace.log
#   mtpsmall (~4 min) the MTP rule's L2 line where many items make the
#           per-tensor amax pass cover every SM (v74: at 64 x 4096 q_seq_len
#           2, MTP off, an item's two fp8_wgmma blocks start apart behind
#           their SMs' amax blocks, 87.7 us against 68.0 when they start
#           together): MLAB_MTP on against off, ABBA, fp8_wgmma,
#           fp8_wgmma_qrow and bf16_wgmma at batch 32, 64, 128 x kv 512,
#           1024, 2048, q_seq_len 2 (fp8's KV 0.19-3.0 L2s of an H100; the
#           rule takes fp8_wgmma's M32 past 1 L2). MLAB_QUEUE_BIN: the
#           carried program (else built). MTPSMALL_STEPS="auto:1 off:1 off:2
#           auto:2": the rule against off (v74's mlab_mtp_auto: the unit
#           where the items outnumber half the SMs), with the unit each row
#           ran. Weighed in perf-notes v74. $OUT: mtpsmall_{MODE}_{1,2}.h5,
#           mtpsmall.log, build.log
#   rowsplit (~3 min) a block a row's split count at q_seq_len 2 (v75: at 32
#           items of kv 1024 and 2048 the MTP unit, 4 splits (128 blocks),
#           beat a block a row, which the split rule ran at 1 split (64
#           blocks) at kv 512 and 1024: is it the unit, or the SMs the row
#           plan left idle?): MLAB_MTP=off by the rule and with 1, 2, 4, 8
#           splits forced, then MLAB_MTP=on by the rule, then off by the
#           rule again (the drift), bf16_wgmma, fp8_wgmma, fp8_wgmma_qrow
#           (ROWSPLIT_VARIANTS) at 8, 16, 32 x 512, 1024, 2048
#           (ROWSPLIT_BATCH, ROWSPLIT_KV), q_seq_len 2, each row validated
#           first. papers/wip/rows_kv.patch (host code: the rule's DRAM share
#           counting an item's two rows once) picks 2 at 32 x 512 and 1024
#           (fp8) and 32 x 1024 (bf16), 8 at 8 x 1024 and 4 at 16 x 512
#           (bf16): forced counts this call runs. ROWSPLIT_ALT_BIN=PROG (a
#           program built here with that patch, carried beside the other):
#           its own rule's run after the rest, MLAB_MTP=off, into
#           rowsplit_alt.h5. MLAB_QUEUE_BIN: the carried program (else
#           built). $OUT: rowsplit_{rule,1,2,4,8,unit,rule2}.h5,
#           rowsplit_alt.h5, rowsplit.log, build.log (8 and more: rest.tar)
#   sweep2  (~5 min) on a machine of 2 GPUs (run's kind nvidia-h200-x2 or
#           nvidia-h100-x2): issue 14's last step, never run (no two-GPU kind
#           was lent in the fourth session, which left it blocked): the suite
#           (generated in memory, the six main decodes, --max-time 0.1) on
#           GPU 0 alone, then split over both GPUs by CTest's resource
#           allocation (harness/sweep: gpus_json.sh, ctest_sweep.sh, 2
#           slices, ctest -j 2), then 2 slices cut by one.h5's case times
#           (run --slice-costs), then 4 slices by size over the two; each
#           merged and compared with the one-GPU file (--threshold 0.05);
#           the wall time of each, and which GPU (uuid) and how many
#           seconds of cases each slice holds. Prediction (perf-notes v68):
#           the same rows at 5%, each slice on its own GPU; by size 2
#           slices ~0.6-0.7x of one GPU's wall time (the size cut puts
#           256 x 8192 with two small cases, 3 against 5), by times ~0.5-0.55x,
#           4 by size ~0.55-0.6x. With MLAB_QUEUE_BIN, the program carried.
#           $OUT: one.h5, two.h5, times.h5, four.h5, sweep2.log
#   sanitize (~4 min) every variant under compute-sanitizer
#           (harness/gpu_sanitize.sh: memcheck, racecheck, synccheck and
#           initcheck on its small awkward cases, --splits 7, MLAB_MTP=on;
#           harness/sanitize_known.txt's findings marked, any other fails),
#           then its negative control (--control: MLAB_FAULT=oob must be
#           reported by memcheck). First run in the sixty-sixth session
#           (v69: papers/reports/h100-2026-12-07b, 194 s and ~15 s on an
#           H100); again after any kernel change that touches shared memory,
#           barriers or the copies. With MLAB_QUEUE_BIN, the program carried.
#           $OUT: summary.txt, control.txt, sanitize.log
#   sanrace (~5 min) racecheck's open finding (v69, sanitize_known.txt: a
#           persistent fp8 wgmma block's refill of a partial tile against
#           consumer 1's V^T loads of its previous unit): the tree with
#           papers/wip/san_delay.patch (consumer 1 sleeps 20 us before each
#           tile's V^T loads) built, then fp8_wgmma and fp8_wgmma_qrow
#           validated 20 times each (seeds 1-20) on --batch 300 --kv-len 200
#           and --batch 140 --kv-len 200, and racecheck of the first; before
#           the build, papers/microbench/racecheck_arrive.cu under racecheck
#           (`persistent`: the block's two-unit protocol in small, clean in
#           v69's call 10; `persistent4`, not yet run: the same at the
#           kernel's scale, four warps a role, ldmatrix reads, zero fills).
#           Prediction (v69): every validation passes (the refill waits on
#           the stage's barrier for consumer 1's arrival after its loads,
#           however late they come) and racecheck still reports the hazard
#           (its order is not timing): then a checker's false positive, the
#           entry's reason says so, and the more so if the probe's
#           `persistent4` is flagged (the protocol alone reproduces it).
#           A failed validation is a real race: the refill overtook the
#           loads. Then the delayed fp8_wgmma timed at 140 x 200 (that the
#           sleep took place: PTX promises nanosleep only [0, 2t]; v71).
#           $OUT: probe.log, sanrace.log, build.log
#
#   tests   (~6 min) the build and every test but the slow ones (GPU tests
#           included: gpu_hang_watch last ran on b88dca2's form, before
#           a3e92a4 gave run's hang stop and signal stop one step), no
#           benchmark: for a machine that comes when the kernels have not
#           changed since the last suite; stopped 550 s from its start (by
#           SIGINT, harness/ctest_lib.sh; MLAB_STOP_S=S: S seconds, where another call
#           ran before it in the same run), its summary says after how many.
#           $OUT: build.log, ctest.log
#   gputests (~3 min) the GPU tests but the slow ones on a program built
#           here and carried (MLAB_QUEUE_BIN): the tree configured, and
#           only the three tests' own small programs built there
#           (gpu_q_quant, gpu_tma_layout, gpu_wgmma_maps: ~7 s on this
#           project's 2-core CPU machine), not mlabench; for a session
#           short of device time (written in the sixty-seventh, when no
#           machine came in ten requests; first run v71: 160 s, the three
#           then left out). MLAB_STOP_S as in tests. MLAB_QUEUE_BIN missing
#           or not a program: exit 2 first. $OUT: build.log (the three
#           programs' build), ctest.log
#   pick    (~4 min) H200CALL OTHER: run the call H200CALL where the GPU is
#           an H200, else OTHER (a call, or none: nothing run). Either may be
#           several calls joined by commas (`pick suite rowsplit,mtpsmall`):
#           run one after another in one $OUT, each to its end (v75: a
#           machine that comes is worth all the calls that fit its 600 s). A run that
#           names nvidia-h200 mostly gets an H100 (three of three in the
#           fifty-ninth session), so a call queued for an H200 goes as
#           `pick mtprule tests` (or `pick mtprule none`), and the machine
#           that comes does something of use. Both names are checked
#           before anything runs. $OUT: the chosen call's
#
# MLAB_QUEUE_BIN=build-ci-cuda/mlabench (run's carry naming that path): oos, mtpmx, sanitize,
# mtpsplit and mtprule, which need the program alone, take it carried and do not
# build it (~2 minutes of a machine saved: build_gpu): a CUDA build for sm_90a with
# -DMLAB_CUDART_STATIC=ON, the runtime inside (.ci/run's build-ci-cuda is one;
# here `cmake --build build-ci-cuda --target mlabench` brings it to the tree's
# commit, which it records, with -dirty for uncommitted changes). First run on a
# GPU machine in the sixty-fourth session (v67: mtprule in 80 s, oos in 245 s). The
# program is 12.9 MB: with .peers carried too the copy was ~66 of the tool's
# 67.1 MB (v67), so carry .peers only for a call that runs the peers (oos, suite).
#
# Exit codes: 0 the call ran (read its files: a test may have failed); 2
# usage; 4 a build failed (the log in $OUT).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) && cd "$root" || exit 2
die() { echo "device-queue.sh: $2" >&2; exit "$1"; }
# A call returns at most 8 files from $OUT (the device tool): past that,
# every file but the first 7 by name goes into $OUT/rest.tar (`tar xf` it
# where the files are fetched), so none is left behind (v60's mtpsplit wrote
# 9 and lost its rule's run). Run at every exit of a call; where two calls
# run in one $OUT, the second adds to the first's rest.tar (v75: writing it
# anew lost the first's files).
out_bundle() {
  local n m=c
  n=$(find "$OUT" -maxdepth 1 -type f | wc -l)
  [ "$n" -le 8 ] && return 0
  [ -f "$OUT/rest.tar" ] && m=r
  (cd "$OUT" && find . -maxdepth 1 -type f ! -name rest.tar -printf '%f\n' | LC_ALL=C sort | tail -n +8 |
    tar "${m}f" rest.tar --remove-files -T -) &&
    echo "device-queue.sh: $n files in \$OUT: all but 7 in rest.tar" >&2
}
trap out_bundle EXIT
# A call's experiment kept off main (papers/wip/, named in full here so that
# .ci/run and test_device_queue find it): PATCH CALL, applied to the copied
# tree (git apply, or patch(1) where the copy has no .git), or the call ends (4)
apply_wip() {
  git apply "$1" 2>/dev/null || patch -p1 --forward < "$1" || die 4 "$2: $1 does not apply"
}
# The calls' GPU build: CALL [TARGET...]: build-gpu configured (Release; MLAB_COMMIT and
# MLAB_COMMIT_DIRTY as given) and built (the TARGETs, default all) into $OUT/build.log, or
# the call ends (4) with the log's tail. MLAB_QUEUE_BIN=PROGRAM: where the call needs
# the program alone (TARGET mlabench), a program built elsewhere and carried (run's
# carry), copied in and not built: a CUDA build for sm_90a with -DMLAB_CUDART_STATIC=ON
# (the runtime inside: only the driver needed here), e.g. CI's build-ci-cuda/mlabench
build_gpu() {
  local call=$1 tg=()
  shift
  if [ "$*" = mlabench ] && [ -n "${MLAB_QUEUE_BIN:-}" ]; then
    [ -x "$MLAB_QUEUE_BIN" ] || die 2 "$call: MLAB_QUEUE_BIN=$MLAB_QUEUE_BIN is no program"
    mkdir -p build-gpu && cp "$MLAB_QUEUE_BIN" build-gpu/mlabench || die 4 "$call: MLAB_QUEUE_BIN not copied"
    build-gpu/mlabench --version > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; die 4 "$call: $MLAB_QUEUE_BIN does not run here"; }
    echo "device-queue.sh $call: the carried program, not built: $(cat "$OUT/build.log")"
    return 0
  fi
  [ $# -gt 0 ] && tg=(--target "$@")
  { cmake -S . -B build-gpu -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DMLAB_COMMIT="${MLAB_COMMIT:-}" \
      -DMLAB_COMMIT_DIRTY="${MLAB_COMMIT_DIRTY:-0}" && cmake --build build-gpu -j"$(nproc)" "${tg[@]}"; } \
    > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; die 4 "$call: the build failed"; }
}
# FILE.h5 TAG: a results file's timed rows, a line each (run from build-gpu): TAG, the
# case, the variant, its split count, grid and unit (item: the MTP unit; row or heads:
# a block a row) and its median, for the log of a call that compares plans
unit_rows() {
  ./mlabench export "$1" --format csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["timed"] == "1":
        print(sys.argv[1], r["case_name"], r["variant"], "splits", r["splits"], "grid", r["grid"], r["unit"], r["median_us"])' "$2"
}
# The calls' tests: SECONDS [CTEST OPTION...]: every test but the slow ones in
# build-gpu (harness/ctest_lib.sh: -j8, stopped by SIGINT SECONDS from now), into
# $OUT/ctest.log; its summary, and how far a stopped run got
gpu_ctest() {
  local left=$1 rc
  shift
  . "$root/harness/ctest_lib.sh"
  mlab_ctest build-gpu "$OUT/ctest.log" "$left" "$@"; rc=$?
  echo "ctest rc=$rc$([ "$rc" = 124 ] && echo " (stopped after $(mlab_ctest_stopped build-gpu "$OUT/ctest.log" "$@"))")"
  grep -E 'tests passed|Failed|\*\*\*|Not Run' "$OUT/ctest.log" | head -30
}
# The MTP calls' validation (mtpmx, mtprule): BIN DIR VARIANTS: q2_edge and q2_long
# (tests/gpu.cmake's) made in DIR by BIN and validated with NaN poison, MLAB_MTP on,
# off and on with 64 splits forced; then each variant's overread control with MTP on
# on q2_edge (exit 5 wanted), and the `_qrow` decodes' qscale control (M32's per-(row,
# head) Q scales: gpu_negative_control_qscale_mtp_*)
mtp_validate() {
  local b=$1 d=$2 v=$3 w
  $b gen --quiet --batch 5 --kv-len 4097 --q-seq-len 2 --seed 20 --name q2_edge -o "$d/q2_edge.h5"
  $b gen --quiet --batch 3 --kv-len 20000 --q-seq-len 2 --seed 17 --name q2_long -o "$d/q2_long.h5"
  for e in MLAB_MTP=on MLAB_MTP=off; do
    echo "== validate $e"; env $e $b run --require-gpu --no-time --quiet --variants "$v" "$d/q2_edge.h5" "$d/q2_long.h5"
    echo "rc=$?"
  done
  echo "== validate 64 splits"
  MLAB_MTP=on $b run --require-gpu --no-time --quiet --variants "$v" --splits 64 "$d/q2_edge.h5" "$d/q2_long.h5"
  echo "rc=$?"
  for w in ${v//,/ }; do
    echo "== negative control overread $w q2_edge (exit 5 wanted)"
    MLAB_FAULT=overread MLAB_MTP=on $b run --require-gpu --no-time --quiet --variants "$w" "$d/q2_edge.h5"; echo "rc=$?"
    case $w in *_qrow*)
      echo "== negative control qscale $w q2_edge (exit 5 wanted)"
      MLAB_FAULT=qscale MLAB_MTP=on $b run --require-gpu --no-time --quiet --variants "$w" "$d/q2_edge.h5"; echo "rc=$?" ;;
    esac
  done
}
case ${1:-} in
suite)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "suite: MLAB_COMMIT=<hash> names the commit the results are of"
  MLAB_DEADLINE=${MLAB_DEADLINE:-570} bash harness/gpu_session.sh cuda || die 4 "gpu_session.sh failed (the build: its log in \$OUT)"
  ;;
oos)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "oos: MLAB_COMMIT=<hash> names the commit the results are of"
  start=$(date +%s)
  build_gpu oos mlabench
  . harness/peers/use_pack.sh .peers
  cd build-gpu || exit 4
  main=bf16_wgmma,fp8_wgmma_qrow,fp8_wgmma,mxfp4_qrow_lazy,mxfp4_wgmma_qrow,mxfp4_wgmma
  mix=$(python3 -c 'import random; r = random.Random(5); print(",".join(str(int(2 ** r.uniform(7, 14))) for _ in range(64)))')
  mkdir -p rag
  ./mlabench gen --quiet --kv-lens "$(python3 -c 'print(",".join(["8192"] * 4 + ["512"] * 60))')" --seed 21 --name ragged_b64 -o rag/ragged_b64.h5 &&
  ./mlabench gen --quiet --kv-lens "$mix" --seed 22 --name ragged_mix64 -o rag/ragged_mix64.h5 &&
  ./mlabench gen --quiet --kv-lens "$(python3 -c 'print(",".join(["16384"] + ["256"] * 31))')" --seed 23 --name ragged_1long32 -o rag/ragged_1long32.h5 ||
    die 4 "oos: gen of the ragged cases failed"
  run() { local t=$1 left=$((start + 570 - $(date +%s))); shift; [ "$left" -lt "$t" ] && t=$left; [ "$t" -ge 10 ] || { echo "rc=not run (no time left)"; return; }
          timeout --preserve-status -s TERM -k 15 "$t" ./mlabench run --require-gpu --quiet --max-time 0.15 \
            --variants "$main" --peers flashinfer,flashmla "$@"; echo "rc=$?"; }
  { run 150 rag/*.h5 -o "$OUT/ragged.h5"
    run 230 --batch 1,16,128 --kv-len 2048,16384 -o "$OUT/oos.h5"
    run 110 --batch 8,64 --kv-len 4096 --q-seq-len 2 -o "$OUT/mtp.h5"; } > "$OUT/oos.log" 2>&1
  grep -E '^rc=|error|FAIL|skipped|stopped' "$OUT/oos.log" | head -40
  ;;
mtpmx)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "$1: MLAB_COMMIT=<hash> names the commit the results are of"
  start=$(date +%s)
  v=bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy
  build_gpu mtpmx mlabench
  cd build-gpu || exit 4
  {
    mtp_validate ./mlabench . "$v"
    for step in on:1 off:1 off:2 on:2; do
      echo "== time MLAB_MTP=${step%:*} (${step#*:})"
      MLAB_MTP=${step%:*} ./mlabench run --require-gpu --quiet --max-time 0.12 --variants $v --batch 8,64 \
        --kv-len 4096,8192 --q-seq-len 2 --label "${step%:*}" -o "$OUT/mtpmx_${step%:*}_${step#*:}.h5"; echo "rc=$?"
    done
    echo "== q_seq_len 1, as many KV rows"; ./mlabench run --require-gpu --quiet --max-time 0.12 --variants $v \
      --batch 8,64 --kv-len 4096,8192 -o "$OUT/mtpmx_q1.h5"; echo "rc=$?"
    # v72: the fp8 decodes a block a row with their KV copies not evict_first
    # (does the row's second block miss the first's tiles?), against off_1/2
    echo "== MLAB_MTP=off MLAB_KV_EVICT=off, the fp8 decodes"; MLAB_MTP=off MLAB_KV_EVICT=off ./mlabench run \
      --require-gpu --quiet --max-time 0.12 --variants fp8_wgmma,fp8_wgmma_qrow --batch 8,64 --kv-len 4096,8192 \
      --q-seq-len 2 --label evict_off -o "$OUT/mtpmx_evoff.h5"; echo "rc=$?"
    if [ -d ../.peers ] && [ $(($(date +%s) - start)) -lt 330 ]; then
      . ../harness/peers/use_pack.sh ../.peers
      echo "== FlashInfer beside"; ./mlabench run --require-gpu --quiet --max-time 0.12 --variants $v --peers flashinfer \
        --batch 8,64 --kv-len 4096,8192 --q-seq-len 2 -o "$OUT/mtpmx_peer.h5"; echo "rc=$?"
    fi
  } > "$OUT/mtpmx.log" 2>&1
  grep -E '^==|^rc=|FAIL' "$OUT/mtpmx.log" | head -60
  for k in 1 2; do ./mlabench compare "$OUT/mtpmx_off_$k.h5" "$OUT/mtpmx_on_$k.h5" | grep -E '^b[0-9]|summary'; done
  echo "== evict_first off against on, MTP off"
  ./mlabench compare "$OUT/mtpmx_off_2.h5" "$OUT/mtpmx_evoff.h5" | grep -E '^b[0-9]|summary'
  ;;
mtprule)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "mtprule: MLAB_COMMIT=<hash> names the commit the results are of"
  stop=$(($(date +%s) + 550))
  v=bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow,mxfp4_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy
  if [ -n "${MLAB_QUEUE_BIN:-}" ]; then
    # where device time is short: the carried program (build_gpu), no build and no
    # ctest: the MTP tests' checks by hand (mtp_validate: on, off, 64 splits, the
    # overread and qscale controls; the grid and unit of gpu_mtp_grid_*: mtp_grid.py)
    build_gpu mtprule mlabench
    cd build-gpu || exit 4
    {
      mtp_validate ./mlabench . "$v"
      for m in on off; do
        echo "== grid and unit, MLAB_MTP=$m (gpu_mtp_grid_$m's check)"
        MLAB_MTP=$m MLAB_PAIRS=off ./mlabench run --require-gpu --no-time --quiet --variants "$v" q2_long.h5 -o "mtp_$m.h5"
        ./mlabench export "mtp_$m.h5" | python3 "$root/tests/mtp_grid.py" $m && echo ok || echo FAIL
      done
    } > "$OUT/ctest.log" 2>&1
    grep -E '^==|^rc=|^ok|FAIL' "$OUT/ctest.log" | head -40
  else
    build_gpu mtprule
    gpu_ctest $((stop - $(date +%s)))
    cd build-gpu || exit 4
  fi
  {
    # MTPRULE_STEPS: fewer runs where device time is short ("auto:1 off:1": one pair; set
    # and empty: none, the tests alone)
    for step in ${MTPRULE_STEPS-auto:1 off:1 off:2 auto:2}; do
      echo "== time MLAB_MTP=${step%:*} (${step#*:})"
      MLAB_MTP=${step%:*} ./mlabench run --require-gpu --quiet --max-time 0.08 --variants $v --batch 8,64 \
        --kv-len 4096,8192 --q-seq-len 2 --label "${step%:*}" -o "$OUT/mtprule_${step%:*}_${step#*:}.h5"; echo "rc=$?"
    done
    for k in 1 2; do
      echo "== MLAB_MTP=off, 64 x 4096 q_seq_len 2, the fp8 decodes: --splits $k"
      MLAB_MTP=off ./mlabench run --require-gpu --quiet --max-time 0.08 --variants fp8_wgmma,fp8_wgmma_qrow --batch 64 \
        --kv-len 4096 --q-seq-len 2 --splits $k --label "splits$k" -o "$OUT/mtprule_oneu_$k.h5"; echo "rc=$?"
    done
  } > "$OUT/mtprule.log" 2>&1
  grep -E '^==|^rc=|FAIL' "$OUT/mtprule.log" | head -20
  for k in 1 2; do
    if [ -e "$OUT/mtprule_auto_$k.h5" ]; then
      ./mlabench compare "$OUT/mtprule_off_$k.h5" "$OUT/mtprule_auto_$k.h5" | grep -E '^b[0-9].*_(wgmma|qrow|lazy) |summary'
    fi
  done
  if [ -e "$OUT/mtprule_oneu_2.h5" ]; then
    echo "== MTP off, fp8 at 64 x 4096 q_seq_len 2: 1 split (one wave) -> 2 (persistent)"
    ./mlabench compare "$OUT/mtprule_oneu_1.h5" "$OUT/mtprule_oneu_2.h5" | grep -E '^b[0-9].*(wgmma|qrow) |ran:|summary'
  fi
  ;;
mtpsplit)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "mtpsplit: MLAB_COMMIT=<hash> names the commit the results are of"
  [ -x build-gpu/mlabench ] || build_gpu mtpsplit mlabench
  cd build-gpu || exit 4
  {
    for s in rule 1 2 4 8 16; do
      echo "== splits $s"
      MLAB_MTP=on ./mlabench run --require-gpu --quiet --max-time 0.1 \
        --variants "${MTPSPLIT_VARIANTS:-bf16_wgmma,mxfp4_wgmma_qrow,mxfp4_qrow_lazy}" \
        --batch "${MTPSPLIT_BATCH:-8,64}" --kv-len "${MTPSPLIT_KV:-4096,8192}" --q-seq-len 2 \
        $([ $s = rule ] || echo --splits $s) -o "$OUT/mtpsplit_$s.h5"; echo "rc=$?"
    done
  } > "$OUT/mtpsplit.log" 2>&1
  grep -E '^==|^rc=|FAIL' "$OUT/mtpsplit.log" | head -30
  ;;
mxtrace)
  w=${TMPDIR:-/tmp}/mxtrace; mkdir -p "$w/cases"
  { cmake -S . -B build-trace -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release \
      "-DCMAKE_CUDA_FLAGS=-DMLAB_TRACE -DMLAB_WG_PROF" && cmake --build build-trace --target mlabench -j"$(nproc)"; } \
    > "$OUT/build_trace.log" 2>&1 || { tail -30 "$OUT/build_trace.log"; die 4 "mxtrace: the trace build failed"; }
  # MXTRACE_BATCH, MXTRACE_KV, MXTRACE_VARIANTS: another shape and other decodes (the head's words)
  tb=${MXTRACE_BATCH:-64} tk=${MXTRACE_KV:-8192} tv=${MXTRACE_VARIANTS:-mxfp4_wgmma_qrow,mxfp4_qrow_lazy}
  build-trace/mlabench gen --quiet --batch "$tb" --kv-len "$tk" --q-seq-len 2 --seed 31 --name "q2_b$tb" -o "$w/cases/q2_b$tb.h5" &&
    build-trace/mlabench gen --quiet --batch "$tb" --kv-len "$tk" --seed 31 --name "q1_b$tb" -o "$w/cases/q1_b$tb.h5" ||
    die 4 "mxtrace: gen failed"
  for k in "on:q2_b$tb:MLAB_MTP=on" "off:q2_b$tb:MLAB_MTP=off" "q1:q1_b$tb:MLAB_MTP=auto"; do
    IFS=: read -r tag c e <<< "$k"
    mkdir -p "$w/$tag"
    OUT=$w/$tag MLAB_TRACE_BIN=$PWD/build-trace/mlabench MLAB_AB_CASES=$w/cases MLAB_TRACE_ENV=$e \
      bash harness/gpu_trace.sh "$c" -- --max-time 0.05 --variants "$tv" ||
      { echo "mxtrace: the $tag trace failed"; continue; }
    cp "$w/$tag/trace_table.md" "$OUT/${tag}_trace_table.md"; cp "$w/$tag/trace_summary.txt" "$OUT/${tag}_trace_summary.txt"
    echo "== $tag"; grep -E 'TW|cycles' "$OUT/${tag}_trace_summary.txt" | head -20
  done
  ;;
rowsplit)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "rowsplit: MLAB_COMMIT=<hash> names the commit the results are of"
  alt=${ROWSPLIT_ALT_BIN:-}
  if [ -n "$alt" ]; then # the alternate program, by an absolute path (the runs go from build-gpu)
    [ -x "$alt" ] && alt=$(cd "$(dirname "$alt")" && pwd)/$(basename "$alt") ||
      die 2 "rowsplit: ROWSPLIT_ALT_BIN=$alt is no program"
  fi
  build_gpu rowsplit mlabench
  cd build-gpu || exit 4
  {
    for step in off:rule off:1 off:2 off:4 off:8 on:unit off:rule2 ${alt:+off:alt}; do
      m=${step%:*} s=${step#*:} prog=./mlabench
      [ "$s" = alt ] && prog=$alt
      echo "== MLAB_MTP=$m ($s)"
      MLAB_MTP=$m timeout -k 10 120 "$prog" run --require-gpu --quiet --max-time 0.1 \
        --variants "${ROWSPLIT_VARIANTS:-bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow}" \
        --batch "${ROWSPLIT_BATCH:-8,16,32}" --kv-len "${ROWSPLIT_KV:-512,1024,2048}" --q-seq-len 2 \
        $(case $s in [0-9]*) echo --splits "$s" ;; esac) --label "$m-$s" -o "$OUT/rowsplit_$s.h5"; echo "rc=$?"
    done
  } > "$OUT/rowsplit.log" 2>&1
  grep -E '^==|^rc=' "$OUT/rowsplit.log"
  for s in rule 1 2 4 8 unit rule2 alt; do
    if [ -e "$OUT/rowsplit_$s.h5" ]; then unit_rows "$OUT/rowsplit_$s.h5" "$s"; fi
  done
  ;;
mtpsmall)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "mtpsmall: MLAB_COMMIT=<hash> names the commit the results are of"
  build_gpu mtpsmall mlabench
  cd build-gpu || exit 4
  # MTPSMALL_STEPS: the runs, MODE:N each (default on against off, ABBA; "auto:1 off:1
  # off:2 auto:2": the rule against off); the table is off against the other mode
  steps=${MTPSMALL_STEPS:-on:1 off:1 off:2 on:2}
  alt=$(tr ' ' '\n' <<< "$steps" | grep -v '^off:' | head -1); alt=${alt%:*}
  {
    for step in $steps; do
      echo "== MLAB_MTP=${step%:*} (${step#*:})"
      MLAB_MTP=${step%:*} timeout -k 10 120 ./mlabench run --require-gpu --quiet --max-time 0.08 \
        --variants bf16_wgmma,fp8_wgmma,fp8_wgmma_qrow --batch 32,64,128 --kv-len 512,1024,2048 --q-seq-len 2 \
        --label "${step%:*}" -o "$OUT/mtpsmall_${step%:*}_${step#*:}.h5"; echo "rc=$?"
    done
  } > "$OUT/mtpsmall.log" 2>&1
  grep -E '^==|^rc=' "$OUT/mtpsmall.log"
  if [ -e "$OUT/mtpsmall_${alt}_2.h5" ] && [ -e "$OUT/mtpsmall_off_2.h5" ]; then
    python3 "$root/harness/tools/ab_table.py" --mlabench ./mlabench "$OUT/mtpsmall_off_1.h5" "$OUT/mtpsmall_${alt}_1.h5" \
      "$OUT/mtpsmall_off_2.h5" "$OUT/mtpsmall_${alt}_2.h5"
  elif [ -e "$OUT/mtpsmall_off_1.h5" ]; then # one pair (MTPSMALL_STEPS of two runs)
    ./mlabench compare "$OUT/mtpsmall_off_1.h5" "$OUT/mtpsmall_${alt}_1.h5" | grep -E '^b[0-9]|summary'
  fi
  if [ -e "$OUT/mtpsmall_${alt}_1.h5" ]; then
    echo "== the unit each row ran ($alt, run 1)"
    unit_rows "$OUT/mtpsmall_${alt}_1.h5" "$alt"
  fi
  ;;
sweep2)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "sweep2: MLAB_COMMIT=<hash> names the commit the results are of"
  g=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  [ "$g" -ge 2 ] || die 4 "sweep2: $g GPUs here, 2 wanted (run's kind nvidia-h200-x2 or nvidia-h100-x2)"
  build_gpu sweep2 mlabench
  b=$root/build-gpu/mlabench
  o="--suite --require-gpu --quiet --max-time 0.1 --variants bf16_wgmma,fp8_wgmma_qrow,fp8_wgmma,mxfp4_qrow_lazy,mxfp4_wgmma_qrow,mxfp4_wgmma"
  now() { date +%s.%N; }
  {
    nvidia-smi -L
    t0=$(now); $b run $o --device 0 -o "$OUT/one.h5"; echo "rc=$?"; t1=$(now)
    echo "wall one GPU: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
    bash harness/sweep/gpus_json.sh > gpus.json && cat gpus.json
    # two (by size), two (by one.h5's case times: run --slice-costs), four (by size)
    for cut in two:2: times:2:--slice-costs=$OUT/one.h5 four:4:; do
      IFS=: read -r f n c <<< "$cut"
      d=sweep_$f
      bash harness/sweep/ctest_sweep.sh "$d" "$n" "$b" $o $c || { echo "rc=ctest_sweep.sh failed"; continue; }
      t0=$(now); ctest --test-dir "$d" -j 2 --resource-spec-file "$PWD/gpus.json" --output-on-failure; echo "rc=$?"; t1=$(now)
      echo "wall $f: $n slices on 2 GPUs${c:+ ($c)}: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
      $b merge $d/slice_*.h5 -o "$OUT/$f.h5"; echo "rc=$?"
      for k in $(seq 0 $((n - 1))); do
        echo "slice $k: $($b export $d/slice_$k.h5 --format csv | python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin)); w = {x["case_name"]: float(x["case_wall_s"]) for x in r}
print(len(r), "rows,", len(w), "cases, %.1f s of cases," % sum(w.values()), "GPUs",
      sorted({(x["device_index"], x["gpu_uuid"]) for x in r if x["kind"] != "cpu"}))')"
      done
      echo "== compare one GPU -> $f"; $b compare "$OUT/one.h5" "$OUT/$f.h5" --threshold 0.05; echo "rc=$?"
    done
  } > "$OUT/sweep2.log" 2>&1
  grep -E '^GPU |^rc=|^wall|^slice|^summary|regressions|Failed|tests passed' "$OUT/sweep2.log" | head -40
  ;;
sanitize)
  build_gpu sanitize mlabench
  MLAB_BIN=$root/build-gpu/mlabench bash harness/gpu_sanitize.sh --out "$root/sanitize" > "$OUT/sanitize.log" 2>&1
  echo "sanitize rc=$?"
  cp "$root/sanitize/summary.txt" "$OUT/summary.txt" 2>/dev/null
  grep -vE '^  |gen|\[1/1\]' "$OUT/sanitize.log" | tail -60
  MLAB_BIN=$root/build-gpu/mlabench bash harness/gpu_sanitize.sh --control --out "$root/sanitize_control" > "$OUT/control.txt" 2>&1
  echo "control rc=$?"; tail -3 "$OUT/control.txt"
  ;;
sanrace)
  { nvcc -O3 -arch=sm_90a -o /tmp/racecheck_arrive papers/microbench/racecheck_arrive.cu &&
      compute-sanitizer --tool racecheck --print-limit 50 --log-file /tmp/probe_rc.log /tmp/racecheck_arrive
    python3 harness/tools/sanitize_summary.py /tmp/probe_rc.log; } > "$OUT/probe.log" 2>&1
  echo "== the probe (planted races: handoff<2>, landing<2>)"; grep -vE '^ +known' "$OUT/probe.log" | cut -c1-220
  apply_wip papers/wip/san_delay.patch sanrace
  build_gpu sanrace mlabench
  b=$root/build-gpu/mlabench
  {
    for spec in "--batch 300 --kv-len 200" "--batch 140 --kv-len 200"; do
      for v in fp8_wgmma fp8_wgmma_qrow; do
        f=0
        for i in $(seq 20); do
          # shellcheck disable=SC2086 # the shape's options split on purpose
          $b run --require-gpu --no-time --quiet --variants $v $spec --seed "$i" -o /tmp/sanrace.h5 > /tmp/sanrace.out 2>&1 ||
            { f=$((f + 1)); tail -5 /tmp/sanrace.out; }
        done
        echo "validate $v [$spec]: $f of 20 failed"
      done
    done
    # that the sleep took place (PTX promises nanosleep only [0, 2t]): the
    # delayed call's time, two sleeps a unit of 4 tiles at 200 rows (v71,
    # H100: 125 us delayed, 21.7 undelayed)
    # (run's own table: its fp8_wgmma row, median_us the fourth column)
    $b run --require-gpu --quiet --max-time 0.05 --variants fp8_wgmma --batch 140 --kv-len 200 -o /tmp/sanrace_t.h5 2>&1 |
      awk '$1 == "fp8_wgmma" && $2 == "ok" { print "time fp8_wgmma [--batch 140 --kv-len 200], delayed: median " $4 " us" }'
    # shellcheck disable=SC2086
    MLAB_HANG_S=0 compute-sanitizer --tool racecheck --print-limit 20 --log-file /tmp/sanrace_rc.log \
      $b run --require-gpu --no-time --quiet --variants fp8_wgmma --batch 140 --kv-len 200 -o /tmp/sanrace.h5
    echo "racecheck rc=$?"
    python3 harness/tools/sanitize_summary.py /tmp/sanrace_rc.log
  } > "$OUT/sanrace.log" 2>&1
  grep -E '^validate|^time|^racecheck|findings|clean' "$OUT/sanrace.log"
  ;;
gputests)
  stop=$(($(date +%s) + ${MLAB_STOP_S:-550}))
  [ -n "${MLAB_QUEUE_BIN:-}" ] && [ -x "$MLAB_QUEUE_BIN" ] ||
    die 2 "gputests: MLAB_QUEUE_BIN=${MLAB_QUEUE_BIN:-} is no program (one built here, carried)"
  build_gpu gputests mlabench
  # the GPU tests with programs of their own: built here (small), beside the carried mlabench
  build_gpu gputests gpu_q_quant gpu_tma_layout gpu_wgmma_maps
  gpu_ctest $((stop - $(date +%s))) -L gpu
  ;;
tests)
  stop=$(($(date +%s) + ${MLAB_STOP_S:-550}))
  build_gpu tests
  gpu_ctest $((stop - $(date +%s)))
  ;;
pick)
  # a call by name: one of this file's case labels (not pick), or none; CALLS: one, or
  # several joined by commas, run one after another in one $OUT (out_bundle adds to
  # rest.tar), each to its end whatever the one before it returned; the exit status
  # the first that was not 0
  is_call() { [ "$1" != pick ] && grep -qE "^([a-z]+ \| )*$1( \| [a-z]+)*\)$" "$0"; }
  are_calls() { local c; case $1 in '' | ,* | *, | *,,*) return 1 ;; esac
    for c in ${1//,/ }; do is_call "$c" || return 1; done; }
  [ $# -eq 3 ] && are_calls "$2" && { [ "$3" = none ] || are_calls "$3"; } ||
    die 2 "pick: H200CALLS OTHERS, each one of this file's calls or several joined by commas (OTHERS may be none), not: ${*:2}"
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  case $gpu in *H200*) c=$2 ;; *) c=$3 ;; esac
  echo "device-queue.sh pick: ${gpu:-no GPU}: $c"
  [ "$c" = none ] && exit 0
  export OUT
  rc=0
  for one in ${c//,/ }; do
    bash "$0" "$one"; r=$?
    [ "$rc" = 0 ] && rc=$r
  done
  exit "$rc"
  ;;
*) die 2 "usage: papers/device-queue.sh suite|oos|mtpmx|mtprule|mtpsplit|mxtrace|mtpsmall|rowsplit|sweep2|sanitize|sanrace|gputests|tests|pick (the calls: this file's head)" ;;
esac
