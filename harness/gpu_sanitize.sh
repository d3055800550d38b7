#!/usr/bin/env bash
# gpu_sanitize.sh: every GPU variant under NVIDIA's compute-sanitizer, on
# small awkward cases, folded into one line per finding's site.
#
# Usage: [MLAB_BIN=build/mlabench] harness/gpu_sanitize.sh [--tools T,..] [--variants V,..]
#            [--out DIR] [--control]
#   --tools     memcheck,racecheck,synccheck,initcheck (the default: all four)
#   --variants  mlabench's GPU variants (default: every one this build runs)
#   --out       where the cases, the logs and summary.txt go (default ./out/sanitize)
#   --control   the negative control only: MLAB_FAULT=oob (the output written
#               one query row past its buffer, runner.hip) under memcheck
#               with padding after every allocation must be reported as an
#               invalid global write in one of mlabench's kernels
#
# The runs: the cases below (generated first, not under the sanitizer), each
# tool once over all of them with every variant validated (mlabench run
# --no-time, NaN poison as always), then two runs that take other paths:
# --splits 7 (partials and the combine on every row) and MLAB_MTP=on (the
# item units of two query rows). A tool that reports anything is run again
# a variant at a time over the cases, so each finding names its variant.
# Racecheck warnings count: the tree keeps none. Each log is
# DIR/TOOL-RUN.log; DIR/summary.txt is harness/tools/sanitize_summary.py's
# reading of them (after a line naming the checker's version, the GPU and
# the program), one line a log and one a site, with the findings under
# investigation (harness/sanitize_known.txt, each naming its notes) marked
# "known": they do not fail the run, any other finding does.
#
# Exit: 0 every tool clean but for known findings (or, with --control, the
# fault reported); 1 a finding, a run that failed by itself (validation
# under the checker, a GPU error: its TOOL-RUN.out), or the control not
# caught; 2 usage; 77 no
# compute-sanitizer or no NVIDIA GPU (CTest: skipped). On an H100 (perf-notes
# v69) the whole run took 194 s, the control ~15.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MLAB_BIN:-$here/build/mlabench}
tools=memcheck,racecheck,synccheck,initcheck variants="" out=$PWD/out/sanitize control=0
while [ $# -gt 0 ]; do
  case $1 in
    --tools) tools=${2:?--tools needs a list}; shift 2 ;;
    --variants) variants=${2:?--variants needs a list}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --control) control=1; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "gpu_sanitize.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for t in ${tools//,/ }; do
  case $t in memcheck|racecheck|synccheck|initcheck) ;;
    *) echo "gpu_sanitize.sh: --tools: $t is not memcheck, racecheck, synccheck or initcheck" >&2; exit 2 ;;
  esac
done
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null) ||
  { echo "gpu_sanitize.sh: no compute-sanitizer (CUDA toolkit) here: skipped"; exit 77; }
nvidia-smi -L > /dev/null 2>&1 || { echo "gpu_sanitize.sh: no NVIDIA GPU: skipped"; exit 77; }
[ -x "$BIN" ] || { echo "gpu_sanitize.sh: no mlabench at $BIN (MLAB_BIN)" >&2; exit 2; }
mkdir -p "$out/cases" || exit 2
out=$(cd "$out" && pwd)
# a kernel under the sanitizer runs 10-100x slower: no hang watchdog
export MLAB_HANG_S=0
sel=()
[ -n "$variants" ] && sel=(--variants "$variants")

# the cases: ragged lengths with an empty item and one-row items, causal
# query rows, two rows an item (MTP), a split call, scales only the MXFP4
# exact path holds, more units than SMs (the persistent grids)
gen() { "$BIN" gen --quiet "$@" > /dev/null || { echo "gpu_sanitize.sh: gen $* failed"; exit 1; }; }
gen --kv-lens 0,1,17,64,65,129,500 --seed 11 --name varlen -o "$out/cases/varlen.h5"
gen --kv-lens 1,2,65,130 --q-seq-len 3 --seed 12 --name q3 -o "$out/cases/q3.h5"
gen --batch 3 --kv-len 700 --q-seq-len 2 --seed 17 --name mtp -o "$out/cases/mtp.h5"
gen --batch 2 --kv-len 3000 --seed 13 --name split -o "$out/cases/split.h5"
gen --batch 2 --kv-len 300 --input-scale 0.0001 --seed 19 --name tiny -o "$out/cases/tiny.h5"
gen --batch 300 --kv-len 200 --seed 14 --name many -o "$out/cases/many.h5"
cases=("$out"/cases/{varlen,q3,mtp,split,tiny,many}.h5)

# one run of mlabench under TOOL: LABEL, then env words and run options.
# Its exit: 0, 70 (the checker's findings: the summary reads them), 77
# (nothing here can run it); anything else is the run's own failure (a
# variant failing validation under the checker, a GPU error), which fails
# the whole (runfail)
runfail=0
san() {
  local tool=$1 label=$2; shift 2
  local envs=()
  while [ $# -gt 0 ] && [[ $1 == *=* ]]; do envs+=("$1"); shift; done
  local extra=()
  [ "$tool" = memcheck ] && extra=(--padding 65536)
  env "${envs[@]}" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 70 --print-limit 200 \
    --log-file "$out/$tool-$label.log" "$BIN" run --require-gpu --no-time --quiet "$@" \
    -o "$out/$tool-$label.h5" > "$out/$tool-$label.out" 2>&1
  local rc=$?
  rm -f "$out/$tool-$label.h5"
  echo "$tool $label: exit $rc ($(grep -cE ' ok( |$)' "$out/$tool-$label.out") rows ok)"
  case $rc in 0 | 70 | 77) ;; *) [ "$label" = control ] || runfail=1 ;; esac
  return $rc
}

if [ $control = 1 ]; then
  san memcheck control MLAB_FAULT=oob "${sel[@]}" "$out/cases/varlen.h5"
  rc=$?
  python3 "$here/harness/tools/sanitize_summary.py" "$out/memcheck-control.log" > "$out/summary.txt"
  cat "$out/summary.txt"
  if [ $rc = 70 ] && grep -q 'Invalid __global__ write' "$out/summary.txt" &&
     grep -qE 'Device Frame: .*(mla_|decode|combine)' "$out/summary.txt"; then
    echo "control: caught (an invalid global write in mlabench's kernel, exit 70)"; exit 0
  fi
  echo "control: NOT caught (exit $rc)"; exit 1
fi

known=(--known "$here/harness/sanitize_known.txt")
summary() { python3 "$here/harness/tools/sanitize_summary.py" "${known[@]}" "$@"; }
for t in ${tools//,/ }; do
  san "$t" cases "${sel[@]}" "${cases[@]}"
  san "$t" splits7 "${sel[@]}" --splits 7 "$out/cases/varlen.h5" "$out/cases/q3.h5"
  san "$t" mtp MLAB_MTP=on "${sel[@]}" "$out/cases/mtp.h5"
  if ! summary "$out/$t"-{cases,splits7,mtp}.log > /dev/null; then
    # a variant at a time: which variants the findings belong to
    for v in $("$BIN" run --help | sed -n '/^variants:/,/^exit/p' | awk '/^  [a-z]/ {print $1}'); do
      [ -n "$variants" ] && [[ ",$variants," != *",$v,"* ]] && continue
      san "$t" "v-$v" --variants "$v" "${cases[@]}" > /dev/null
      case $? in
        0) ;;
        77) rm -f "$out/$t-v-$v.log" ;; # a variant this GPU or build cannot run
        *) echo "$t: $v has findings" ;;
      esac
    done
  fi
done
# what ran: the checker's version, the GPU, the program (a summary read later says)
{ echo "# $("$cs" --version 2>/dev/null | grep -m1 Version); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $("$BIN" --version 2>/dev/null | head -1)"
  summary "$out"/*.log; } > "$out/summary.txt"
status=$?
cat "$out/summary.txt"
if [ $runfail = 1 ]; then
  echo "a run failed by itself (not a checker's finding): its TOOL-RUN.out in $out"; status=1
fi
exit $status
