#!/usr/bin/env bash
# ncu_banks.sh: every decode's shared-memory bank conflicts, on a GPU machine
# with Nsight Compute: one profile of each variant's validation launch
# (`mlabench run --no-time`), its shared wavefronts and bank conflicts
# (loads, stores) and, per SASS instruction, where the excess wavefronts are
# (harness/tools/ncu_banks.py), then its instructions, stall samples and
# stall reasons by opcode (ncu_banks.py --opcodes, perf-notes v39). How v23's
# conflicts were found (perf-notes).
# Usage: harness/ncu_banks.sh [MLABENCH] [-- case options]
#   MLABENCH      the program (default build/mlabench; a CUDA build)
#   case options  what `mlabench run` runs (default --batch 64 --kv-len 8192
#                 --seed 1360: long enough for every tile loop)
# Env: VARIANTS (default: every variant of variants/variant_list.h), OUT (default ./out):
# OUT/banks.txt (the per-variant totals and hot instructions) and
# OUT/banks_csv.tar.gz (the metrics and per-instruction CSVs). Exit 0, or 2
# (usage: no ncu, no program).
set -u
M=${1:-build/mlabench}; [ "${1:-}" = "--" ] && M=build/mlabench
shift || true; [ "${1:-}" = "--" ] && shift
CASE=("$@"); [ ${#CASE[@]} -eq 0 ] && CASE=(--batch 64 --kv-len 8192 --seed 1360)
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "ncu_banks: no ncu (Nsight Compute) on PATH or in /usr/local/cuda*/bin" >&2; exit 2; }
[ -x "$M" ] || { echo "ncu_banks: no program $M (build with -DMLAB_GPU=cuda)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# every variant of the one list (variants/variant_list.h: X(id, name, ...)); one
# this build lacks (the AMD-only one) fails its run and says so in banks.txt
V=${VARIANTS:-$(sed -n 's/^ *X([0-9]*, *\([a-z0-9_]*\),.*/\1/p' "$here/../variants/variant_list.h" | tr '\n' ' ')}
MET=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
w=$(mktemp -d); : > "$OUT/banks.txt"
for v in $V; do
  if ! timeout 180 "$NCU" --clock-control none --metrics "$MET" --section SourceCounters -k regex:mla_decode \
        --launch-count 1 -f -o "$w/$v" "$M" run --no-time --quiet --variants "$v" "${CASE[@]}" > "$w/$v.log" 2>&1; then
    echo "== $v: ncu failed: $(tail -1 "$w/$v.log")" >> "$OUT/banks.txt"; continue
  fi
  "$NCU" -i "$w/$v.ncu-rep" --page raw --csv --metrics "$MET" > "$w/${v}_metrics.csv" 2>&1
  "$NCU" -i "$w/$v.ncu-rep" --page source --csv --print-source sass > "$w/$v.csv" 2>&1
  { echo "== $v metrics"; python3 "$here/tools/ncu_banks.py" --metrics "$w/${v}_metrics.csv"
    python3 "$here/tools/ncu_banks.py" "$w/$v.csv" --top 8
    python3 "$here/tools/ncu_banks.py" --opcodes "$w/$v.csv" --top 10; } >> "$OUT/banks.txt" 2>&1
done
tar czf "$OUT/banks_csv.tar.gz" -C "$w" $(cd "$w" && ls *.csv 2>/dev/null) 2>/dev/null
rm -rf "$w"
echo "ncu_banks: $OUT/banks.txt"
