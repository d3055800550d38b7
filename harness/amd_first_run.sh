#!/usr/bin/env bash
# amd_first_run.sh: the first command to run on an AMD GPU (MI300X/MI325X =
# gfx942, MI355X = gfx950). mlabench's AMD half has only been compiled, never
# run (README, "Building for GPUs"); this script is how it gets run:
#   1. installs the dependencies (harness/setup.sh, CPU build in build/)
#   2. builds with YOUR ROCm hipcc for the GPU rocminfo reports, into build-amd/
#      (-DMLAB_AMD_TOOLCHAIN=rocm), and writes its ISA summary with that
#      compiler (build-amd/isa/isa-summary.txt; ours, from upstream clang 22,
#      is variants/isa/isa-summary.txt: diff them)
#   3. runs the tests, the GPU ones included (ctest -LE slow)
#   4. generates the competition's 8 cases (fnuz fp8 on gfx942) and runs the
#      suite: every variant validated against the CPU reference, then timed
#   5. writes out/amd-first-run-ARCH.h5 and prints how to compare it with our
#      H200 results (mlabench compare) and the report command
#   6. builds the one-launch experiments (build-amd-ol/, -DMLAB_ONE_LAUNCH=ON)
#      and times the merges of split results on the short cases: the
#      combine kernel against the barrier merge (a row's blocks merge it
#      after a barrier, no second launch), two passes in opposite orders
#      (out/amd-merge-ARCH-*.h5, compared). On the H200 the combine wins
#      (its launch is hidden by a programmatic dependent launch, which AMD
#      does not have: papers/perf-notes.md v25)
# Usage: bash harness/amd_first_run.sh [extra mlabench run options]
# Everything it prints also goes to out/amd-first-run-ARCH.log. Send us that
# log, build-amd/isa/isa-summary.txt and the .h5: they are what we cannot make.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v rocminfo >/dev/null || { echo "amd_first_run: rocminfo not found: is ROCm installed?" >&2; exit 1; }
arch=$(rocminfo 2>/dev/null | grep -o -m1 'gfx9[0-9a-f]*') ||
  { echo "amd_first_run: rocminfo sees no gfx9 GPU" >&2; exit 1; }
# gfx942: fnuz fp8, and only the fp8 variants' tiles fit its 64 KB of LDS
# (bf16 and MXFP4 need 102-141 KB: the runner refuses them, and so the GPU
# tests that run every variant fail there, saying so)
variants=()
case $arch in
  gfx942) fp8=e4m3fnuz; variants=(--variants fp8,fp8_exp2rcp,fp8_xcd) ;;
  gfx950) fp8=e4m3fn ;;
  *) echo "amd_first_run: $arch: mlabench targets gfx942 (MI300X/MI325X) and gfx950 (MI355X)" >&2; exit 1 ;;
esac
mkdir -p out
log=out/amd-first-run-$arch.log
res=out/amd-first-run-$arch.h5
exec > >(tee "$log") 2>&1
echo "== mlabench $(git rev-parse --short HEAD 2>/dev/null || echo '(no git)') on $arch, $(date -u +%FT%TZ)"
rocm-smi --showproductname 2>/dev/null | grep -E 'GPU|Card' | head -4

echo "== 1. dependencies and the CPU build (harness/setup.sh)"
MLAB_GPU=none bash harness/setup.sh >/dev/null || { echo "setup failed"; exit 1; }

echo "== 2. build with ROCm's hipcc for $arch (build-amd/)"
jobs=$(nproc)
cmake -S . -B build-amd -G Ninja -DCMAKE_BUILD_TYPE=Release -DMLAB_GPU=hip -DMLAB_HIP_ARCH="$arch" \
      -DMLAB_AMD_TOOLCHAIN=rocm -DPython3_EXECUTABLE="$PWD/build/venv/bin/python3" | grep 'AMD compiler' ||
  { echo "configure failed"; exit 1; }
cmake --build build-amd -j"$jobs" >out/amd-build-$arch.log 2>&1 || { tail -30 out/amd-build-$arch.log; exit 1; }
echo "build ok (log: out/amd-build-$arch.log)"
cmake --build build-amd --target isa >/dev/null 2>&1 &&
  echo "ISA summary with your compiler: build-amd/isa/isa-summary.txt (ours: variants/isa/isa-summary.txt)"

echo "== 3. tests, GPU ones included (ctest -LE slow)"
ctest --test-dir build-amd -LE slow --output-on-failure -j4 >out/amd-ctest-$arch.log 2>&1
echo "ctest rc=$? (log: out/amd-ctest-$arch.log)"
grep -E 'tests passed|\(Failed\)|\(Not Run\)|Skipped' out/amd-ctest-$arch.log | tail -20

echo "== 4. the competition's 8 cases (fp8 $fp8) and the suite"
suite=build-amd/suite-$fp8
if [ ! -f "$suite/.done" ]; then
  build-amd/mlabench gen --suite --fp8 "$fp8" -o "$suite" && touch "$suite/.done" || { echo "gen failed"; exit 1; }
fi
build-amd/mlabench run --require-gpu "${variants[@]}" "$suite"/*.h5 -o "$res" "$@"
rc=$?
echo "suite rc=$rc"

echo "== 5. results: $res"
ours=$(ls papers/reports/*/*suite*.h5 2>/dev/null | sort | tail -1)
echo "compare with our H200 results:  build-amd/mlabench compare ${ours:-OURS.h5} $res"
echo "report:                         build-amd/mlabench report $res -o out/amd-report-$arch.md"
[ "$arch" = gfx942 ] && echo "note: gfx942 has 64 KB of LDS a CU: the suite ran the fp8 variants only (one KV stage, 57 KB); bf16 and MXFP4 tiles do not fit, and the GPU tests that run every variant report that as a failure."

echo "== 6. the merges of split results on the short cases (a one-launch build, build-amd-ol/)"
short=$(ls "$suite"/b4_*.h5 "$suite"/b32_kv1024*.h5 "$suite"/b64_kv1024*.h5 2>/dev/null)
if cmake -S . -B build-amd-ol -G Ninja -DCMAKE_BUILD_TYPE=Release -DMLAB_GPU=hip -DMLAB_HIP_ARCH="$arch" \
     -DMLAB_AMD_TOOLCHAIN=rocm -DMLAB_ONE_LAUNCH=ON -DBUILD_TESTING=OFF >/dev/null 2>&1 &&
   cmake --build build-amd-ol -j"$jobs" >"out/amd-build-ol-$arch.log" 2>&1 && [ -n "$short" ]; then
  for step in "combine 1" "barrier 1" "barrier 2" "combine 2"; do
    read -r m k <<< "$step"
    # shellcheck disable=SC2086 # the case files, split on purpose
    MLAB_MERGE=$m build-amd-ol/mlabench run --require-gpu --quiet "${variants[@]}" --label "$m" $short \
      -o "out/amd-merge-$arch-${m}_$k.h5" >/dev/null 2>&1 || echo "the $m run $k failed"
  done
  for k in 1 2; do
    build-amd-ol/mlabench compare "out/amd-merge-$arch-combine_$k.h5" "out/amd-merge-$arch-barrier_$k.h5" |
      grep -E '^geomean|^summary|ran: merge' | sort | uniq -c
  done
else
  echo "the one-launch build failed or no short cases (log: out/amd-build-ol-$arch.log)"
fi
exit $rc
