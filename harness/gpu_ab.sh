#!/usr/bin/env bash
# gpu_ab.sh: a same-machine A/B of the working tree against an earlier commit,
# the way each kernel change in papers/perf-notes.md was measured: both trees
# built on the GPU machine, the recorded cases run new, base, base, new (two
# pairs in opposite orders: a change is believed when both pairs agree), and
# `mlabench compare` of each pair.
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
#       $OUT (default ./out) gets ab_new_1.h5, ab_base_1.h5, ab_base_2.h5,
#       ab_new_2.h5 and compare.txt. MLAB_COMMIT names the working tree in the
#       results files (default "worktree").
# Env for runs without building: MLAB_AB_NEW_BIN and MLAB_AB_BASE_BIN (the two
# mlabench programs), MLAB_AB_CASES (a folder of case files).
# Exit codes: 0 done (whatever the comparison says: read compare.txt), 2 usage
# (unknown commit, COMMIT not prepared), 4 a build, the cases or a run failed.
set -u
die() { echo "gpu_ab.sh: $2" >&2; exit "$1"; }
root=$(cd "$(dirname "$0")/.." && pwd)
verb=${1:-}; commit=${2:-}
[ -n "$verb" ] && [ -n "$commit" ] || die 2 "usage: gpu_ab.sh prepare COMMIT | run COMMIT [mlabench run options...]"
shift 2
case "$commit" in *[!0-9A-Za-z._-]*) die 2 "commit '$commit': letters, digits, '.', '_' and '-' only" ;; esac
base="$root/.ab/$commit"

if [ "$verb" = prepare ]; then
  git -C "$root" rev-parse --verify -q "$commit^{commit}" > /dev/null || die 2 "no commit '$commit' in $root"
  rm -rf "$base" && mkdir -p "$base" || die 4 "cannot create $base"
  git -C "$root" archive "$commit" | tar -x -C "$base" || die 4 "git archive $commit failed"
  rm -rf "$base/papers/reports" # results files: not needed to build, and they weigh
  git -C "$root" rev-parse --short "$commit" > "$base/.ab_commit"
  echo "gpu_ab.sh: $commit in .ab/$commit ($(du -sh "$base" | cut -f1)); on the GPU machine: harness/gpu_ab.sh run $commit"
  exit 0
fi
[ "$verb" = run ] || die 2 "unknown verb '$verb' (prepare or run)"
[ -n "${MLAB_AB_BASE_BIN:-}" ] || [ -f "$base/.ab_commit" ] || die 2 "$commit is not prepared (.ab/$commit): run 'harness/gpu_ab.sh prepare $commit' in the checkout first"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT" || die 4 "cannot create $OUT"
t0=$(date +%s)
jobs=$(nproc 2> /dev/null || echo 4)
build() { # src dir commit (a stale program must not pass for a failed build)
  rm -f "$2/mlabench"
  cmake -S "$1" -B "$2" -G Ninja -DMLAB_GPU="${MLAB_GPU:-cuda}" -DCMAKE_BUILD_TYPE=Release -DMLAB_COMMIT="$3" \
    > "$2.log" 2>&1 && cmake --build "$2" -j$((jobs / 2 > 1 ? jobs / 2 : 1)) --target mlabench >> "$2.log" 2>&1
}
new=${MLAB_AB_NEW_BIN:-}; old=${MLAB_AB_BASE_BIN:-}; pids=()
if [ -z "$new" ]; then build "$root" "$root/build-ab-new" "${MLAB_COMMIT:-worktree}" & pids+=($!); new="$root/build-ab-new/mlabench"; fi
if [ -z "$old" ]; then build "$base" "$base/build-ab" "$(cat "$base/.ab_commit")" & pids+=($!); old="$base/build-ab/mlabench"; fi
cases=${MLAB_AB_CASES:-}
if [ -z "$cases" ]; then
  cases="$OUT/ab_cases"
  ( python3 "$root/data/record_competition.py" --out "$cases" > "$OUT/ab_record.log" 2>&1 ) & pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done # each step's outcome is checked below
[ -x "$new" ] || die 4 "the working tree did not build: $root/build-ab-new.log"
[ -x "$old" ] || die 4 "$commit did not build: $base/build-ab.log"
if ! ls "$cases"/*.h5 > /dev/null 2>&1; then # no PyTorch CUDA here: the generated suite
  "$new" gen --suite -o "$cases" > "$OUT/ab_gen.log" 2>&1 || die 4 "no cases: $OUT/ab_record.log, $OUT/ab_gen.log"
fi
echo "gpu_ab.sh: built and recorded in $(($(date +%s) - t0)) s"
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--max-time 0.15)
for step in "new $new 1" "base $old 1" "base $old 2" "new $new 2"; do
  read -r lab bin k <<< "$step"
  "$bin" run --require-gpu --quiet --label "$lab" "${opts[@]}" "$cases"/*.h5 -o "$OUT/ab_${lab}_$k.h5" \
    > "$OUT/ab_${lab}_$k.log" 2>&1 || die 4 "the $lab run $k failed: $OUT/ab_${lab}_$k.log"
  echo "gpu_ab.sh: $lab run $k done ($(($(date +%s) - t0)) s)"
done
{
  for k in 1 2; do
    echo "== pair $k: $commit (base) against the working tree (new)"
    "$new" compare "$OUT/ab_base_$k.h5" "$OUT/ab_new_$k.h5"
    echo "(compare exit $?)"
  done
} > "$OUT/compare.txt" 2>&1
grep -E "^== |^geomean|^summary" "$OUT/compare.txt"
exit 0
