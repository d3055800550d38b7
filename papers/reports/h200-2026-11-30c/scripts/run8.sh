#!/usr/bin/env bash
# run 8: where fp8's fixed time goes. Builds HEAD plain and with -DMLAB_TRACE,
# per-block phase timeline (globaltimer), ncu per-kernel durations, split sweep.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; R=/tmp/r; mkdir -p $R /tmp/c
t0=$(date +%s)
B="-G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF"
( cmake -S . -B /tmp/b-base $B && cmake --build /tmp/b-base -j8 ) > $R/build-base.log 2>&1 &
( cmake -S . -B /tmp/b-tr $B -DCMAKE_CUDA_FLAGS=-DMLAB_TRACE && cmake --build /tmp/b-tr -j8 ) > $R/build-tr.log 2>&1 &
wait
tail -2 $R/build-base.log $R/build-tr.log
M=/tmp/b-base/mlabench
for bl in 32x8192 256x1024 4x8192; do Bb=${bl%x*}; L=${bl#*x}; $M gen --batch $Bb --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done; wait
echo "built+gen $(( $(date +%s) - t0 )) s"; command -v nsys ncu
for c in 32x8192 256x1024; do
  timeout 60 /tmp/b-tr/mlabench run --require-gpu --quiet --variants fp8 --max-time 0.5 /tmp/c/$c.h5 > $R/trace-$c.log 2>&1; echo "trace $c rc=$?"
  grep -E "^  fp8 " $R/trace-$c.log | head -2
  python3 exp/trace.py $R/trace-$c.log
done
echo "== split sweep fp8 32x8192 (plain build)"
for s in 4 6 8 12 16; do
  timeout 30 $M run --require-gpu --quiet --variants fp8 --splits $s --max-time 0.4 /tmp/c/32x8192.h5 > $R/sp$s.log 2>&1
  echo "splits $s: $(grep -E '^  fp8 ' $R/sp$s.log | head -1 | cut -c1-100)"
done
timeout 30 $M run --require-gpu --quiet --variants fp8,bf16 --max-time 0.4 /tmp/c/32x8192.h5 /tmp/c/256x1024.h5 > $R/plain.log 2>&1
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $R/plain.log | cut -c1-110
echo "timing $(( $(date +%s) - t0 )) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
timeout 120 $NCU --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" -k regex:mla_ \
    $M run --require-gpu --quiet --no-time --variants fp8 /tmp/c/32x8192.h5 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "mla_|duration|bytes|issue_active|warps_active" $R/ncu.txt | head -40
grep -E "stalled.*ratio" $R/ncu.txt | awk '$NF+0 > 0.1' | head -40
echo "total $(( $(date +%s) - t0 )) s"
cd $R && tar czf $OUT/r8.tgz --exclude='*.h5' . ; ls -la $OUT
