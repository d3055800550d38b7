#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-05, forty-third session, call 4: the KV
# split rule's picks for bf16_wgmma (v43's DRAM share with its head pairs
# counted, {78, 0, 100, 70}) against 1, 2, 4, 8 and 16 splits forced, on 4
# shapes out of sample where that share and v42's disagree).
#   rerun.sh   from the committed results files: harness/tools/split_sweep.py's
#              report (each file exported to CSV first), then its fit of
#              bf16_wgmma's share with a paired tile at 70 %, every percent,
#              on these 4 shapes and on these with -04o's and -04q's forced
#              runs (MLAB_SPLIT_PICK: the rule program, default
#              build/mlab_split_pick)
# To re-measure (a GPU machine): `bash papers/device-queue.sh sweep` at
# d67aa56 (mlabench gen --batch W --kv-len L --seed 7 for 60 x 1024,
# 40 x 6144, 72 x 3072, 80 x 4096; split_sweep.py run --variants bf16_wgmma
# --counts 1,2,4,8,16).
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
pick=${MLAB_SPLIT_PICK:-build/mlab_split_pick}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" s43 c4
echo "== call 4: bf16_wgmma's share with its head pairs counted (--pair 70), every percent"
python3 harness/tools/split_sweep.py fit "$tmp/c4" --sms 132 --step 1 --pair 70 --pick "$pick" |
  grep -E "^split_sweep fit: bf16|^\| 7[0-9] \|"
# every forced run of bf16_wgmma so far: s39 (-04o), s40 (-04q) and these
mkdir -p "$tmp/all"
for f in papers/reports/h200-2026-12-04o/s39_c*_splits_[0-9]*.h5 papers/reports/h200-2026-12-04q/s40_c*_splits_[0-9]*.h5 \
         "$here"/s43_c*_splits_[0-9]*.h5; do
  "$M" export "$f" -o "$tmp/all/$(basename "$f" .h5).csv" > /dev/null
done
for f in "$tmp/all"/*.csv; do b=$(basename "$f" .csv); mv "$f" "$tmp/all/splits_${b##*_}_${b%%_splits*}.csv"; done
echo "== s39, s40 and s43: bf16_wgmma's share with its head pairs counted (--pair 70), every percent"
python3 harness/tools/split_sweep.py fit "$tmp/all" --sms 132 --step 1 --pair 70 --pick "$pick" |
  grep -E "^split_sweep fit: bf16|^\| (5[0-9]|7[0-9]|8[0-2]) \|" | cut -d'|' -f1-3
