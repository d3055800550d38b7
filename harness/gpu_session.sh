#!/usr/bin/env bash
# gpu_session.sh: everything one GPU session does, in one command (the device
# machine keeps nothing): build with the GPU back end, run the GPU tests,
# validate on awkward cases, generate the competition suite and benchmark it
# (with FlashInfer and FlashMLA when the working tree carries their packs, .peers/).
# Usage: [MLAB_COMMIT=<hash>] harness/gpu_session.sh [cuda|hip] [extra mlabench run options]
# Logs and the results file go to $OUT (default ./out). MLAB_COMMIT names the
# commit when the tree was copied without .git (as the device tool does), and
# MLAB_COMMIT_DIRTY=1 says that tree had changes the commit lacks.
set -u
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
echo "== ctest (all but slow)"
ctest -LE slow --output-on-failure -j4 > "$OUT/ctest.log" 2>&1; ctest_rc=$?; echo "ctest rc=$ctest_rc"
grep -E 'tests passed|Failed|\*\*\*|Skipped|Passed' "$OUT/ctest.log" | tail -30
echo "== validation tables on the awkward cases"
./mlabench run --require-gpu --no-time --quiet gpu_cases/*.h5 > "$OUT/validate.log" 2>&1; validate_rc=$?; echo "validate rc=$validate_rc"
grep -E '==|FAIL|worst|ok ' "$OUT/validate.log" | head -80
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
./mlabench run --require-gpu --quiet suite/*.h5 -o "$OUT/results.h5" "${peers[@]}" "$@" > "$OUT/bench.log" 2>&1; bench_rc=$?; echo "bench rc=$bench_rc"
grep -vE '^\s*$' "$OUT/bench.log" | grep -vE 'cpu_ref|format|CPU reference' | head -120
# last, where a caller that keeps only the output's tail (the device tool) sees
# it: what failed, by name (the five CPU tests that failed on the H200 machine
# in the v46 suite were found only by reading ctest.log)
echo "== summary: ctest rc=$ctest_rc, validate rc=$validate_rc, bench rc=$bench_rc"
grep -E 'tests passed' "$OUT/ctest.log" | tail -1
sed -n '/The following tests FAILED:/,$p' "$OUT/ctest.log" | grep -E '^[[:space:]]*[0-9]+ - ' | head -20
