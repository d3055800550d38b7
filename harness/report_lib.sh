# shellcheck shell=bash
# report_lib.sh: what the rerun.sh of a report folder (papers/reports/*/)
# repeats. Sourced as its first step,
#   . "$(dirname "$0")/../../../harness/report_lib.sh"
# it changes to the repository's root and sets here (the folder, relative to
# the root) and M (the mlabench program: $MLAB_BIN, default build/mlabench).
#   report_figures FILE.h5 OUT   `mlabench plot` (PNG where gnuplot is) and
#                                `mlabench report` of FILE.h5 into OUT; the
#                                recorded command line's GPU-machine folders
#                                written as $OUT and $SUITE
#   report_compare TITLE OLD NEW [OPTION...]
#                                `mlabench compare --threshold 0.05` (no case
#                                slower by more than 5%?) under a title line;
#                                more compare options after NEW (e.g.
#                                --per-read-limit: each run's times over its
#                                own read limit)
#   report_pair TITLE OLD NEW    `mlabench compare` of an A/B pair (the
#                                default threshold) under a title line
#   report_pairs TITLE OLD NEW   report_pair of both pairs of an A/B call:
#                                OLD_1.h5 against NEW_1.h5, then _2
#   report_ab_table TITLE OLD NEW
#                                both pairs as one table (harness/tools/
#                                ab_table.py: a case by variant, each cell
#                                base -> new, base -> new (changes)): the
#                                README's table of an A/B, re-derived
#   report_ab_table_rl TITLE OLD NEW
#                                the same with each median over its run's
#                                read limit (ab_table.py --per-read-limit)
#   report_ab TITLE OLD NEW      both tables, then report_pairs: an A/B's
#                                whole report
#   report_table FILE.h5         the medians table of `mlabench report` (its
#                                first table: case by variant)
#   report_history NEW.h5 NEW_NAME PREV.h5 PREV_NAME
#                                a suite against the suite before it (also per
#                                read limit), 0f09366's file and v7's suite
#                                (report_compare each)
#   report_sweeps TMP PREFIX CALL...
#                                harness/tools/split_sweep.py's report of each
#                                call's split sweep: its results files
#                                ($here/PREFIX_CALL_splits_*.h5) exported to
#                                TMP/CALL/splits_*.csv first (left there for a
#                                fit)
#   report_oos PREFIX [ARG]      an `oos` folder's own part (papers/device-queue.sh
#                                oos: PREFIX_{ragged,uniform,mtp}.h5): with --gpu,
#                                the call again into $OUT (default
#                                out/rerun-FOLDER), each file compared with the
#                                committed one, then exit; else (--out DIR,
#                                default the folder) the three merged into a
#                                temporary PREFIX_all.h5 and report_figures of it
#   report_oos_history PREFIX PREV WHAT
#                                an `oos` folder's --history: its three files
#                                against the folder PREV's (papers/reports/
#                                PREV/PREFIX_{ragged,uniform,mtp}.h5; WHAT says
#                                what PREV was), report_compare each
#   report_suite FILE.h5 [ARG]   a suite folder's own part: with --gpu,
#                                re-measure the 8 recorded cases with the
#                                variants, FlashInfer and FlashMLA (harness/peers/use_pack.sh:
#                                the .peers packs where carried) into $OUT (default
#                                out/rerun-FOLDER) and compare with FILE.h5,
#                                then exit; else (--out DIR, default the
#                                folder) report_figures of FILE.h5. An older
#                                folder's rerun options: SUITE_RUN_ARGS (the
#                                default --max-time 0.1 --label rerun --peers
#                                flashinfer,flashmla)
# A "slower" verdict (compare's exit 6) is printed, not an error: the script
# goes on to its next comparison.
here_abs=$(cd "$(dirname "$0")" && pwd)
M=${MLAB_BIN:-}
# a relative MLAB_BIN is the caller's, made absolute before the cd below
case $M in "" | /*) ;; */*) M=$PWD/$M ;; esac
cd "$here_abs/../../.." || exit 4
here=papers/reports/$(basename "$here_abs")
M=${M:-build/mlabench}
# report_queue_calls ARG CALL...: a folder of queued calls' --gpu: where ARG
# (the script's first argument) is --gpu, papers/device-queue.sh CALL for
# each CALL in turn, on this tree, into $OUT (default out/rerun-FOLDER), its
# MLAB_COMMIT this tree's HEAD, and the script ends there; else nothing
report_queue_calls() {
  [ "$1" = --gpu ] || return 0
  shift
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  local c call
  c=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  for call in "$@"; do OUT=$OUT MLAB_COMMIT=$c bash papers/device-queue.sh "$call"; done
  exit
}
report_figures() {
  "$M" plot "$1" --out "$2" --format png --if-available
  "$M" report "$1" --plots "$2" -o "$2/report.md"
  sed -i -E 's#-o /[^ ]*/out/#-o $OUT/#; s#/tmp/(suite|cases|mlab-ab-work/cases)/#$SUITE/#g' "$2/report.md"
}
report_compare() {
  echo "== $1"
  "$M" compare "$2" "$3" --threshold 0.05 "${@:4}" || [ $? -eq 6 ]
}
report_pair() {
  echo "== $1"
  "$M" compare "$2" "$3" || [ $? -eq 6 ]
}
report_pairs() {
  local k
  for k in 1 2; do report_pair "pair $k: $1" "$2_$k.h5" "$3_$k.h5"; done
}
report_ab_table() {
  echo "== $1"
  python3 harness/tools/ab_table.py --mlabench "$M" "$2_1.h5" "$3_1.h5" "$2_2.h5" "$3_2.h5"
}
report_ab_table_rl() { # the same, each median over its run's read limit (ab_table.py --per-read-limit)
  echo "== $1"
  python3 harness/tools/ab_table.py --mlabench "$M" --per-read-limit "$2_1.h5" "$3_1.h5" "$2_2.h5" "$3_2.h5"
}
report_ab() { # TITLE OLD NEW: an A/B's two tables (us, then over each run's read limit) and both pairs' compare
  report_ab_table "$1, both pairs" "$2" "$3"
  report_ab_table_rl "$1, each median over its run's read limit" "$2" "$3"
  report_pairs "$1" "$2" "$3"
}
report_onoff() { # TITLE PREFIX: PREFIX_off_{1,2}.h5 -> PREFIX_on_{1,2}.h5 (a knob off against on,
  # two pairs): the A/B table and each pair's compare, then PREFIX_q1.h5's table where there is one
  report_ab_table "$1: off -> on, both pairs" "$2_off" "$2_on"
  report_pairs "$1, off -> on" "$2_off" "$2_on"
  if [ -e "$2_q1.h5" ]; then echo "== $1: q_seq_len 1 of as many KV rows"; report_table "$2_q1.h5"; fi
}
report_table() { # awk reads to the end: an early exit could end mlabench by SIGPIPE (pipefail)
  "$M" report "$1" | awk '!d && /^[|] case/ { t = 1 } t && /^$/ { t = 0; d = 1 } t'
}
report_history() {
  report_compare "the $4 suite against the $2 suite (no case slower by more than 5%?)" "$3" "$1"
  report_compare "the $4 suite against the $2 suite, per read limit (each run's own)" "$3" "$1" --per-read-limit
  report_compare "0f09366 against the $2 suite" papers/reports/h200-2026-12-01/h200_ab_0f09366.h5 "$1"
  report_compare "v7's suite against the $2 suite" papers/reports/h200-2026-12-01/h200_v7_suite.h5 "$1"
}
report_sweeps() {
  local tmp=$1 pre=$2 c f b
  shift 2
  for c in "$@"; do
    mkdir -p "$tmp/$c"
    for f in "$here/${pre}_${c}"_splits_*.h5; do
      b=$(basename "$f" .h5); "$M" export "$f" -o "$tmp/$c/${b#"${pre}_${c}_"}.csv" > /dev/null
    done
    echo "== call ${c#c}: the rule's pick (as built for that call) against every power of two forced"
    python3 harness/tools/split_sweep.py report "$tmp/$c"
  done
}
report_suite() {
  if [ "${2:-}" = "--gpu" ]; then
    OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
    python3 data/record_competition.py --out "$OUT/suite"
    . harness/peers/use_pack.sh .peers || true # FlashInfer (and FlashMLA) from the carried packs, or a line saying what is missing
    # SUITE_RUN_ARGS: an older folder's own run options (its --max-time, --label, --peers)
    # shellcheck disable=SC2086
    "$M" run --require-gpu --quiet ${SUITE_RUN_ARGS:---max-time 0.1 --label rerun --peers flashinfer,flashmla} \
         "$OUT"/suite/*.h5 -o "$OUT/results.h5"
    report_compare "the committed suite against this run" "$1" "$OUT/results.h5"
    exit
  fi
  local out=$here
  if [ "${2:-}" = "--out" ]; then out=${3:?--out needs a folder}; mkdir -p "$out"; fi
  report_figures "$1" "$out"
}
report_oos_history() {
  local f
  for f in ragged uniform mtp; do
    report_compare "$f: $2 ($3) -> this call" "papers/reports/$2/$1_$f.h5" "$here/$1_$f.h5"
  done
}
report_oos() {
  local pre=$1 out=$here tmp f
  if [ "${2:-}" = "--gpu" ]; then
    OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
    OUT=$OUT MLAB_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) bash papers/device-queue.sh oos
    for f in ragged uniform mtp; do # the call names the uniform run oos.h5
      report_compare "the committed $f run against this one" "$here/${pre}_$f.h5" "$OUT/$([ $f = uniform ] && echo oos || echo $f).h5"
    done
    exit
  fi
  if [ "${2:-}" = "--out" ]; then out=${3:?--out needs a folder}; mkdir -p "$out"; fi
  tmp=$(mktemp -d)
  "$M" merge "$here/${pre}_ragged.h5" "$here/${pre}_uniform.h5" "$here/${pre}_mtp.h5" -o "$tmp/${pre}_all.h5"
  report_figures "$tmp/${pre}_all.h5" "$out"
  sed -i "s#$tmp/##g" "$out/report.md" # the merged file lives in a temporary folder: name it as made here
  rm -rf "$tmp"
}
