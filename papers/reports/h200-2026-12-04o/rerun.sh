#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, thirty-ninth session, calls 3-4: the
# KV split rule's picks against every power of two forced, for the six
# wgmma decodes on 7 competition cases (call 3) and for bf16_wgmma, fp8_wgmma
# and fp8_wgmma_qrow on 8 more shapes (call 4)).
#   rerun.sh   from the committed results files: harness/tools/split_sweep.py's
#              report of each call (each file exported to CSV first), then its
#              fit over both (MLAB_SPLIT_PICK: the rule program, default
#              build/mlab_split_pick)
# To re-measure (a GPU machine): harness/tools/split_sweep.py run --out DIR
#   --max-time 0.05 --variants V,.. CASE.h5 ... (call 3: the 8 recorded cases
#   but 256 x 8192, data/record_competition.py; call 4: mlabench gen --batch W
#   --kv-len L --seed 39 for the 8 shapes the README lists)
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" s39 c3 c4
# the bandwidth factor fitted over both calls' forced runs (the rule itself: mlab_split_pick)
mkdir -p "$tmp/all"
for c in c3 c4; do for f in "$tmp/$c"/splits_[0-9]*.csv; do cp "$f" "$tmp/all/$(basename "$f" .csv)_$c.csv"; done; done
echo "== both calls: the bandwidth factor each variant's picks are best with"
python3 harness/tools/split_sweep.py fit "$tmp/all" --sms 132 --pick "${MLAB_SPLIT_PICK:-build/mlab_split_pick}"
