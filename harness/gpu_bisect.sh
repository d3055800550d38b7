#!/usr/bin/env bash
# gpu_bisect.sh: which commit made a kernel slower (or less accurate), by
# bisection on one GPU machine: every step builds one commit's tree, runs the
# same cases and compares them with the known good commit's run through
# `mlabench compare` (exit 6: a regression, so that commit is bad; 0: good).
# Like harness/gpu_ab.sh, the trees are prepared where git is and travel to
# the GPU machine, which needs no git (the device tool copies no .git).
#
#   harness/gpu_bisect.sh prepare GOOD BAD
#       here, in the git checkout: the commits of GOOD..BAD along the first
#       parent, GOOD first (at most $MLAB_BISECT_MAX, default 12), each as a
#       source tree in .bisect/NN (ignored; papers/ left out: ~2.5 MB a tree)
#       and .bisect/list ("NN SHA SUBJECT" a line), to travel with the working
#       tree (the device tool: carry [".bisect"])
#   harness/gpu_bisect.sh run [mlabench run options...]
#       on the GPU machine: measures GOOD (the first tree) and BAD (the last)
#       and stops unless compare(GOOD, BAD) finds a regression (exit 3); then
#       halves the range, each midpoint compared with GOOD's run; a tree
#       that fails to build or run (or whose compare is neither 0 nor 6) is
#       skipped and a neighbour tried. The options name the cases and the
#       variants, as for `mlabench run` (e.g. `--batch 4 --kv-len 1024,8192
#       --variants fp8_wgmma --max-time 0.2`: cases generated in memory), and
#       go to every run; MLAB_BISECT_COMPARE holds compare's options (default
#       "--threshold 0.03"). Prints each step and the first bad commit; $OUT
#       (default ./out) gets bisect.txt (the steps, then compare's report of
#       the first bad commit against GOOD) and the results files of GOOD, the
#       first bad commit and its parent; after a failure, bisect-logs/ (each
#       step's run log and compare report).
#
# One step is one run of each side, as one pair of gpu_ab.sh: a change near
# the threshold or the machine's run-to-run noise (papers/perf-notes.md,
# "Run-to-run noise") can mislead a step; confirm the commit it names with
# gpu_ab.sh (two pairs in opposite orders).
# Env: MLAB_BISECT_REPO (the git checkout, default this one), MLAB_BISECT_DIR
# (the trees, default REPO/.bisect), MLAB_BISECT_MEASURE (a command run as
# `CMD TREE OUT.h5 [options...]` that writes one results file of TREE's
# program, exit 0; default: build TREE with CMake (Release, $MLAB_GPU, default
# cuda; the program only) and `mlabench run ... -o OUT.h5`), MLAB_BISECT_BIN
# (the mlabench that compares; default the first tree's).
# Exit codes: 0 found (or GOOD..BAD is one commit), 2 usage (no such commit,
# nothing prepared), 3 BAD is not worse than GOOD (nothing to bisect), 4 GOOD
# or BAD could not be measured, or no step could (every tree skipped: the
# range is printed).
set -u
die() { echo "gpu_bisect.sh: $2" >&2; exit "$1"; }
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/harness/tree_lib.sh" # mlab_tree_export, mlab_tree_build
repo=${MLAB_BISECT_REPO:-$root}
dir=${MLAB_BISECT_DIR:-$repo/.bisect}
verb=${1:-}
[ -n "$verb" ] || die 2 "usage: gpu_bisect.sh prepare GOOD BAD | run [mlabench run options...]"
shift

if [ "$verb" = prepare ]; then
  [ $# -eq 2 ] || die 2 "usage: gpu_bisect.sh prepare GOOD BAD"
  good=$(git -C "$repo" rev-parse --verify -q "$1^{commit}") || die 2 "no commit '$1' in $repo"
  bad=$(git -C "$repo" rev-parse --verify -q "$2^{commit}") || die 2 "no commit '$2' in $repo"
  git -C "$repo" merge-base --is-ancestor "$good" "$bad" || die 2 "$1 is not an ancestor of $2"
  max=${MLAB_BISECT_MAX:-12}
  mapfile -t commits < <(git -C "$repo" rev-list --first-parent --reverse "$good..$bad")
  [ ${#commits[@]} -ge 1 ] || die 2 "$1..$2 has no commit"
  commits=("$good" "${commits[@]}")
  [ ${#commits[@]} -le "$max" ] ||
    die 2 "$1..$2 is ${#commits[@]} commits with $1, more than $max (MLAB_BISECT_MAX): narrow it, or raise it (each tree ~2.5 MB to carry)"
  rm -rf "$dir" && mkdir -p "$dir" || die 4 "cannot create $dir"
  i=0
  for c in "${commits[@]}"; do
    t=$(printf '%s/%02d' "$dir" "$i")
    # papers/ (reports, notes, microbenchmarks): not needed to build, and they weigh
    mlab_tree_export "$repo" "$c" "$t" papers || die 4 "cannot write the tree of $c into $t"
    printf '%02d %s %s\n' "$i" "$(git -C "$repo" rev-parse --short "$c")" "$(git -C "$repo" log -1 --format=%s "$c" | cut -c1-100)" >> "$dir/list"
    i=$((i + 1))
  done
  echo "gpu_bisect.sh: ${#commits[@]} trees in $dir ($(du -sh "$dir" | cut -f1)); on the GPU machine: harness/gpu_bisect.sh run [mlabench run options]"
  exit 0
fi
[ "$verb" = run ] || die 2 "unknown verb '$verb' (prepare or run)"
[ -f "$dir/list" ] || die 2 "nothing prepared in $dir: run 'harness/gpu_bisect.sh prepare GOOD BAD' in the checkout first"
mapfile -t list < "$dir/list"
n=${#list[@]}
[ "$n" -ge 2 ] || die 2 "$dir/list: fewer than two trees"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT" || die 4 "cannot create $OUT"
work=$(mktemp -d)
# on a failure the steps' logs and compare reports (the messages name them)
# are kept in $OUT/bisect-logs, where the device tool brings them back
keep_logs() {
  local rc=$? f kept=0
  if [ "$rc" -ne 0 ]; then
    for f in "$work"/*.log "$work"/cmp*.txt; do
      [ -e "$f" ] || continue
      mkdir -p "$OUT/bisect-logs" && cp "$f" "$OUT/bisect-logs/" && kept=1
    done
    [ "$kept" -eq 0 ] ||
      echo "gpu_bisect.sh: the steps' logs: $OUT/bisect-logs (the temporary folder named above is removed)" >&2
  fi
  rm -rf "$work"
}
trap keep_logs EXIT
jobs=$(nproc 2> /dev/null || echo 4)
sha() { set -- ${list[$1]}; echo "$2"; }
log() { echo "$*" | tee -a "$OUT/bisect.txt"; }
: > "$OUT/bisect.txt"

# the default measure: TREE's program built (again: ninja redoes nothing), then its run
measure_default() {
  local t=$1 out=$2 b=$1/build-bisect
  shift 2
  mlab_tree_build "$t" "$b" "$cur_sha" "$b.log" "$jobs" -DBUILD_TESTING=OFF || { echo "build failed: $b.log" >&2; return 1; }
  "$b/mlabench" run "$@" -o "$out" > "$out.log" 2>&1 || { echo "run failed: $out.log" >&2; return 1; }
}
measure() { # index [options] -> $work/INDEX.h5 (once); 1 where it cannot
  local i=$1 f=$work/$1.h5 t
  shift
  [ -f "$f" ] && return 0
  t=$(printf '%s/%02d' "$dir" "$i")
  cur_sha=$(sha "$i") # the results files name the commit
  if [ -n "${MLAB_BISECT_MEASURE:-}" ]; then
    # shellcheck disable=SC2086 # the command is split on spaces on purpose
    ${MLAB_BISECT_MEASURE} "$t" "$f" "$@" || { rm -f "$f"; return 1; }
  else
    measure_default "$t" "$f" "$@" || { rm -f "$f"; return 1; }
  fi
  [ -f "$f" ]
}
opts=("$@")
mlab=${MLAB_BISECT_BIN:-}
# compare GOOD's run with tree i's: 0 good, 1 bad, 2 neither (skip)
verdict() {
  local rc=0
  # shellcheck disable=SC2086 # compare's options are split on spaces on purpose
  "$mlab" compare "$work/0.h5" "$work/$1.h5" ${MLAB_BISECT_COMPARE:---threshold 0.03} > "$work/cmp$1.txt" 2>&1 || rc=$?
  case $rc in 0) return 0 ;; 6) return 1 ;; *) return 2 ;; esac
}
step() { # i: measured and judged; sets v (good, bad, skip) and logs the step
  local i=$1
  if ! measure "$i" "${opts[@]+"${opts[@]}"}"; then v=skip; log "$(printf '%02d' "$i") $(sha "$i"): skipped (could not be measured)"; return; fi
  verdict "$i"
  case $? in
    0) v=good ;;
    1) v=bad ;;
    *) v=skip ;;
  esac
  log "$(printf '%02d' "$i") $(sha "$i"): $v ($(grep -m1 '^summary:' "$work/cmp$i.txt" | cut -c1-160))"
}

log "gpu_bisect: $n trees, GOOD $(sha 0), BAD $(sha $((n - 1))); options: ${opts[*]-}"
measure 0 "${opts[@]+"${opts[@]}"}" || die 4 "GOOD ($(sha 0)) could not be measured"
[ -n "$mlab" ] || mlab=$dir/00/build-bisect/mlabench
[ -x "$mlab" ] || die 4 "no mlabench to compare with: $mlab (set MLAB_BISECT_BIN)"
step $((n - 1))
case $v in
  good) die 3 "BAD ($(sha $((n - 1)))) is not worse than GOOD ($(sha 0)) by compare: nothing to bisect ($(grep -m1 '^summary:' "$work/cmp$((n - 1)).txt"))" ;;
  skip) die 4 "BAD ($(sha $((n - 1)))) could not be measured or compared ($work/cmp$((n - 1)).txt)" ;;
esac
lo=0 hi=$((n - 1))
declare -A skipped=()
while [ $((hi - lo)) -gt 1 ]; do
  # the midpoint, else the nearest untried tree inside (lo, hi)
  mid=$(((lo + hi) / 2)) pick=-1
  for d in $(seq 0 $((hi - lo))); do
    for c in $((mid + d)) $((mid - d)); do
      if [ "$c" -gt "$lo" ] && [ "$c" -lt "$hi" ] && [ -z "${skipped[$c]:-}" ]; then pick=$c; break 2; fi
    done
  done
  if [ "$pick" -lt 0 ]; then
    log "the first bad commit is one of $(sha $((lo + 1)))..$(sha "$hi") (every tree between $(sha "$lo") and $(sha "$hi") was skipped)"
    exit 4
  fi
  step "$pick"
  case $v in
    good) lo=$pick ;;
    bad) hi=$pick ;;
    skip) skipped[$pick]=1 ;;
  esac
done
log "first bad commit: $(sha "$hi") (${list[$hi]#* * }); its parent $(sha "$lo") is good"
cp "$work/0.h5" "$OUT/bisect_good.h5"
cp "$work/$hi.h5" "$OUT/bisect_first_bad.h5"
[ "$lo" -eq 0 ] || cp "$work/$lo.h5" "$OUT/bisect_parent.h5"
{ echo; echo "== compare GOOD ($(sha 0)) with the first bad commit ($(sha "$hi"))"; cat "$work/cmp$hi.txt"; } >> "$OUT/bisect.txt"
exit 0
