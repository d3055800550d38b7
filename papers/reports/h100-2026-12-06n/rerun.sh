#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-seventh session, calls 7-9:
# where an M32 block's tile goes: a trace of the two MXFP4 _qrow decodes at
# 64 x 8192 q_seq_len 2 with MLAB_MTP on and off and at q_seq_len 1, and
# ncu's counters of mxfp4_qrow_lazy's M32 and one-row kernels).
#   rerun.sh        the traces' tables and phase summaries, and the counters
#   rerun.sh --gpu  re-measure the traces on a GPU machine (this tree):
#                   papers/device-queue.sh mxtrace into $OUT (the ncu call:
#                   README.md, by hand)
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
if [ "${1:-}" = "--gpu" ]; then
  OUT=${OUT:-$PWD/out/rerun-$(basename "$here")}; mkdir -p "$OUT"
  OUT=$OUT bash papers/device-queue.sh mxtrace
  exit
fi
for t in on off q1; do
  echo "== $t: trace table (us from the decode's start)"; cat "$here/${t}_trace_table.md"
  echo "== $t: consumer 0's and producer 0's cycles a tile"; sed -n '/wgmma consumer phases/,/^  decode start/p' "$here/${t}_trace_summary.txt"
done
for t in on q1; do echo "== ncu, $t"; grep -E '^ +(sm__|l1tex|smsp|gpu__)' "$here/ncu_$t.txt"; done
