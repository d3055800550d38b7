#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-06, fifty-sixth session, call 5:
# `papers/device-queue.sh oos`, the six main decodes and both peers beyond
# the competition's 8: three ragged batches, six uniform shapes, two MTP
# shapes).
#   rerun.sh [--out DIR]  from the committed results files: the three merged
#                         (mlabench merge: one machine, one call) into
#                         DIR/h200_oos_all.h5, then report.md (and, where
#                         gnuplot is, the figures, not committed) into DIR
#                         (default: this folder)
#   rerun.sh --gpu        re-measure on a GPU machine (this tree; .peers/
#                         carried with both packs): the call again into $OUT,
#                         then each file compared with the committed one
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  OUT=$OUT MLAB_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) bash papers/device-queue.sh oos
  for f in ragged uniform mtp; do
    report_compare "the committed $f run against this one" "$here/h200_oos_$f.h5" "$OUT/$( [ $f = uniform ] && echo oos || echo $f ).h5"
  done
  exit
fi
out=$here
if [ "${1:-}" = "--out" ]; then out=${2:?--out needs a folder}; mkdir -p "$out"; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$M" merge "$here"/h200_oos_ragged.h5 "$here"/h200_oos_uniform.h5 "$here"/h200_oos_mtp.h5 -o "$tmp/h200_oos_all.h5"
report_figures "$tmp/h200_oos_all.h5" "$out"
# the merged file lives in a temporary folder: name it as this script makes it
sed -i "s#$tmp/##g" "$out/report.md"
