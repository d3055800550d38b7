#!/usr/bin/env bash
# quickstart.sh: the README's first command. Sets up and builds (setup.sh),
# then the main job on the embedded default case (4 x 1024, seed 4217): the
# CPU reference for every KV format and its error against bf16 truth; with a
# GPU, every variant validated and timed. Ends with out/results.h5, the plots
# and out/report.md.
set -uo pipefail
cd "$(dirname "$0")/.."
bash harness/setup.sh || exit $?
mkdir -p out
build/mlabench run --default -o out/results.h5 "$@"
rc=$?
[ -f out/results.h5 ] || exit $rc
# a figure or the report that fails is the job's failure too (the run's code first)
build/mlabench plot out/results.h5 --out out --format both --if-available || { prc=$?; [ "$rc" -ne 0 ] || rc=$prc; }
build/mlabench report out/results.h5 -o out/report.md --plots out || { prc=$?; [ "$rc" -ne 0 ] || rc=$prc; }
echo "main job: out/results.h5, out/report.md and out/results.*.png|svg (exit $rc)"
exit $rc
