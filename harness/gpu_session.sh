#!/usr/bin/env bash
# gpu_session.sh: everything one GPU session does, in one command (the device
# machine keeps nothing): build with the GPU back end, run the GPU tests,
# validate on awkward cases, generate the competition suite and benchmark it
# (with FlashInfer and FlashMLA when the working tree carries their packs, .peers/).
# Usage: [MLAB_COMMIT=<hash>] [MLAB_DEADLINE=<s>] harness/gpu_session.sh [cuda|hip] [extra mlabench run options]
# Logs and the results file go to $OUT (default ./out). MLAB_COMMIT names the
# commit when the tree was copied without .git (as the device tool does), and
# MLAB_COMMIT_DIRTY=1 says that tree had changes the commit lacks.
# The steps: build, record the suite, benchmark it (every variant and peer
# validated with NaN poison before it is timed), validate the awkward cases,
# then the tests, and last the benchmark against papers/goals/ (goals.py).
# The benchmark comes before the tests because it is what a call that may be
# cut off must bring back: with both peers the whole session
# took over 600 s on an H100 (the device tool's limit; the fiftieth session's
# first call lost its benchmark so). MLAB_DEADLINE, seconds from the start,
# bounds the benchmark (SIGTERM 30 s before it: run writes the rows measured)
# and the tests (SIGINT 20 s before it): tests stopped there are counted as
# stopped in the summary, neither passed nor failed. MLAB_RESUME=1 continues
# the benchmark a stopped session left on this machine (run --resume).
set -u
start=$(date +%s)
backend=${1:-cuda}; shift || true
OUT=${OUT:-$PWD/out}
# absolute: the steps below run from build-gpu
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd) || exit 1
jobs=$(nproc)
{ nvidia-smi || rocm-smi; } > "$OUT/smi.txt" 2>&1
echo "== build ($backend)"
if ! { cmake -S . -B build-gpu -G Ninja -DMLAB_GPU="$backend" -DCMAKE_BUILD_TYPE=Release \
             -DMLAB_COMMIT="${MLAB_COMMIT:-}" -DMLAB_COMMIT_DIRTY="${MLAB_COMMIT_DIRTY:-0}" &&
       cmake --build build-gpu -j"$jobs"; } > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; exit 1
fi
grep -E 'registers|spill' "$OUT/build.log" | sort | uniq -c | head -20
cd build-gpu || exit 1
echo "== the competition's inputs, recorded from PyTorch's CUDA generator"
if python3 ../data/record_competition.py --out suite > "$OUT/record.log" 2>&1 &&
   ./mlabench check --requant suite/*.h5 > "$OUT/requant.log" 2>&1; then
  echo "recorded 8 cases; requant: $(grep -c ' 0/[0-9]* bytes differ, kv_fp8_scale equal' "$OUT/requant.log")/8 fp8 byte-identical"
else
  echo "recording unavailable here ($(tail -1 "$OUT/record.log")): generating the suite"
  ( time ./mlabench gen --suite -o suite ) > "$OUT/gen.log" 2>&1; tail -3 "$OUT/gen.log"
fi
echo "== peers"
# FlashInfer and FlashMLA from the prebuilt packs the working tree carries
# (.peers/: README, Peers), unless the options name peers themselves; without
# a pack a line says so here (a suite run without them is the default's miss)
peers=() have=()
if . ../harness/peers/use_pack.sh ../.peers; then have+=(flashinfer); fi
if [ -n "${MLAB_FLASHMLA_DIR:-}" ]; then have+=(flashmla); fi
if [ ${#have[@]} -gt 0 ]; then
  case " $* " in *" --peers"*) ;; *) peers=(--peers "$(IFS=,; echo "${have[*]}")") ;; esac
fi
echo "== benchmark"
# under the deadline too: SIGTERM 30 s before it, on which run finishes the
# row it samples and writes the rows measured (exit 143, the file saying
# where it stopped)
bstop=()
if [ -n "${MLAB_DEADLINE:-}" ]; then
  left=$((start + MLAB_DEADLINE - 30 - $(date +%s))); [ "$left" -ge 1 ] || left=1
  bstop=(timeout --preserve-status -s TERM -k 15 "$left")
fi
# MLAB_RESUME=1: continue the benchmark the last session on this machine
# left (build-gpu/results-last.h5, kept where the machine is: a call stopped
# at its deadline, then a second call on the warm machine)
resume=()
if [ "${MLAB_RESUME:-0}" = 1 ] && [ -f results-last.h5 ]; then resume=(--resume results-last.h5); fi
"${bstop[@]}" ./mlabench run --require-gpu --quiet suite/*.h5 -o "$OUT/results.h5" "${resume[@]}" "${peers[@]}" "$@" > "$OUT/bench.log" 2>&1; bench_rc=$?
[ -f "$OUT/results.h5" ] && cp "$OUT/results.h5" results-last.h5
bstopped=$(grep -o 'stopped by SIGTERM[^:]*' "$OUT/bench.log" | head -1)
echo "bench rc=$bench_rc$([ "$bench_rc" = 143 ] && [ -n "$bstopped" ] && echo " (stopped at MLAB_DEADLINE: $bstopped, the rows measured kept)")"
grep -vE '^\s*$' "$OUT/bench.log" | grep -vE 'cpu_ref|format|CPU reference' | head -120
echo "== ctest (all but slow)"
# the deadline stops the tests 20 s before it (harness/ctest_lib.sh: by SIGINT;
# those not finished are named stopped, not failed)
. ../harness/ctest_lib.sh
left="" stopped=""
[ -n "${MLAB_DEADLINE:-}" ] && left=$((start + MLAB_DEADLINE - 20 - $(date +%s)))
mlab_ctest . "$OUT/ctest.log" "$left"; ctest_rc=$?
if [ -n "$left" ] && [ "$ctest_rc" = 124 ]; then
  stopped="stopped at MLAB_DEADLINE=$MLAB_DEADLINE s after $(mlab_ctest_stopped . "$OUT/ctest.log")"
fi
echo "ctest rc=$ctest_rc${stopped:+ ($stopped)}"
grep -E 'tests passed|Failed|\*\*\*|Skipped|Passed' "$OUT/ctest.log" | tail -30
echo "== validation tables on the awkward cases"
if [ -n "$stopped" ]; then  # its cases are written by the gpu_gen_* tests
  validate_rc="not run (the tests were stopped)"; echo "validate: $validate_rc"
else
  ./mlabench run --require-gpu --no-time --quiet gpu_cases/*.h5 > "$OUT/validate.log" 2>&1; validate_rc=$?; echo "validate rc=$validate_rc"
  grep -E '==|FAIL|worst|ok ' "$OUT/validate.log" | head -80
fi
# last, where a caller that keeps only the output's tail (the device tool) sees
# it: what failed, by name (the five CPU tests that failed on the H200 machine
# in the v46 suite were found only by reading ctest.log)
echo "== summary: ctest rc=$ctest_rc${stopped:+ ($stopped)}, validate rc=$validate_rc, bench rc=$bench_rc${bstopped:+ ($bstopped)}"
grep -E 'tests passed' "$OUT/ctest.log" | tail -1
if [ -n "$stopped" ]; then  # no FAILED block: the failures before the stop, by name
  grep -E '^ *[0-9]+/[0-9]+ Test +#.*\*\*\*' "$OUT/ctest.log" | head -20
else
  sed -n '/The following tests FAILED:/,$p' "$OUT/ctest.log" | grep -E '^[[:space:]]*[0-9]+ - ' | head -20
fi
# and the benchmark against the goals files (papers/goals/: a kernel issue's
# bars, met or MISSED, each value from the results file): a goal whose
# variant or peer this run did not time says so in one line
if [ -f "$OUT/results.h5" ]; then
  for g in ../papers/goals/*.txt; do
    [ -f "$g" ] || continue
    echo "== goals: ${g#../}"
    python3 ../harness/tools/goals.py ./mlabench "$OUT/results.h5" "$g" 2>&1 | head -20
  done
fi
