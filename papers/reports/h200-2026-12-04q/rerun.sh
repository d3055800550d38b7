#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-04, fortieth session, calls 1-2: the KV
# split rule's picks against every power of two forced for the fp8 wgmma
# decodes on 4 shapes (call 1) and for bf16_wgmma, fp8_wgmma and
# fp8_wgmma_qrow on 10 more (call 2, out of sample); bf16_wgmma's head pairs
# off against on at 64 x 1024 (call 1)).
#   rerun.sh   from the committed results files: harness/tools/split_sweep.py's
#              report of each call (each file exported to CSV first), then its
#              fit over these and -04o's forced runs, in each form (MLAB_SPLIT_PICK:
#              the rule program, default build/mlab_split_pick), and bf16_wgmma's
#              check out of sample (fitted on s39's shapes, asked on call 2's);
#              then the three pairs of call 1
# To re-measure (a GPU machine): harness/tools/split_sweep.py run --out DIR
#   --max-time 0.05 --counts 1,2,4,8,16(,32) --variants V,.. CASE.h5 ... on
#   `mlabench gen --batch W --kv-len L --seed 39` (call 1) or `--seed 40`
#   (call 2) for the shapes the README lists
# MLAB_BIN names the mlabench program (default build/mlabench).
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
pick=${MLAB_SPLIT_PICK:-build/mlab_split_pick}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
report_sweeps "$tmp" s40 c1 c2
# every forced run of s39 (-04o) and s40 together
mkdir -p "$tmp/all"
for f in papers/reports/h200-2026-12-04o/s39_c*_splits_[0-9]*.h5 "$here"/s40_c*_splits_[0-9]*.h5; do
  "$M" export "$f" -o "$tmp/all/$(basename "$f" .h5).csv" > /dev/null
done
for f in "$tmp/all"/*.csv; do b=$(basename "$f" .csv); mv "$f" "$tmp/all/splits_${b##*_}_${b%%_splits*}.csv"; done
echo "== s39 and s40: the DRAM share without the latency terms (bf16_wgmma's form), every percent"
python3 harness/tools/split_sweep.py fit "$tmp/all" --sms 132 --step 1 --pick "$pick" | grep "^split_sweep fit"
echo "== s39 and s40: with the latency terms (--free 36864 --merge 200, the fp8 decodes' form), every percent"
python3 harness/tools/split_sweep.py fit "$tmp/all" --sms 132 --step 1 --free 36864 --merge 200 --pick "$pick" | grep "^split_sweep fit"
echo "== s39 and s40: with bf16_wgmma's head pairs counted (--pair 70), every percent"
python3 harness/tools/split_sweep.py fit "$tmp/all" --sms 132 --step 1 --pair 70 --pick "$pick" | grep "^split_sweep fit: bf16"
echo "== the check out of sample: fitted on s39's 15 shapes alone, then the shares that pick all 15 asked on s40's second sweep"
mkdir -p "$tmp/s39" "$tmp/s40"; cp "$tmp/all"/*_s39_*.csv "$tmp/s39/"; cp "$tmp/all"/*_s40_c2.csv "$tmp/s40/"
for pw in 70:"7[6-9]|80" 100:"5[2-5]"; do # the pair weight, the shares that pick all of s39's 15 with it
  python3 harness/tools/split_sweep.py fit "$tmp/s39" --sms 132 --step 1 --pair "${pw%%:*}" --pick "$pick" | grep "^split_sweep fit: bf16"
  python3 harness/tools/split_sweep.py fit "$tmp/s40" --sms 132 --step 1 --pair "${pw%%:*}" --pick "$pick" |
    grep -E "^\| (${pw#*:}) \|" | cut -d'|' -f1-3
done
for k in 1 2 3; do
  report_pair "call 1, pair $k: bf16_wgmma (and two others) at 64 x 1024, MLAB_PAIRS=on against off" \
    "$here/s40_c1_pairs_on_$k.h5" "$here/s40_c1_pairs_off_$k.h5"
done
