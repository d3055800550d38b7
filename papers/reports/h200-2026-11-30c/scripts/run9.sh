#!/usr/bin/env bash
# run 9: fp8 e4m3 -> f16 unpack by F2FP (0) vs integer ops for V (1) and K+V (2)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; R=/tmp/r; mkdir -p $R /tmp/c
t0=$(date +%s)
B="-G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF"
for u in 0 1 2; do
( cmake -S . -B /tmp/b-u$u $B -DCMAKE_CUDA_FLAGS=-DMLAB_FP8_UNPACK=$u && cmake --build /tmp/b-u$u -j6 ) > $R/build-u$u.log 2>&1 &
done
M=/tmp/b-u0/mlabench
wait
for u in 0 1 2; do tail -1 $R/build-u$u.log; done
for bl in 32x8192 256x1024 64x8192 4x8192 256x8192; do Bb=${bl%x*}; L=${bl#*x}; $M gen --batch $Bb --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done; wait
echo "built+gen $(( $(date +%s) - t0 )) s"
for u in 0 1 2; do cuobjdump -sass /tmp/b-u$u/CMakeFiles/mlab_gpu.dir/variants/fp8.hip.o > $R/u$u.sass 2>/dev/null; echo "u$u F2FP $(grep -c F2FP $R/u$u.sass) HMMA $(grep -c HMMA $R/u$u.sass) LOP3 $(grep -c LOP3 $R/u$u.sass)"; done
for rep in 1 2; do for u in 0 1 2; do
  timeout 60 /tmp/b-u$u/mlabench run --require-gpu --quiet --variants fp8 --max-time 0.4 /tmp/c/32x8192.h5 /tmp/c/256x1024.h5 /tmp/c/64x8192.h5 /tmp/c/4x8192.h5 > $R/t-u$u-$rep.log 2>&1; echo "u$u rep$rep rc=$?"
  grep -E "^  fp8 +ok" $R/t-u$u-$rep.log | cut -c1-110
done; done
for u in 0 2; do
  timeout 60 /tmp/b-u$u/mlabench run --require-gpu --quiet --variants fp8,fp8_exp2rcp --max-time 1 /tmp/c/256x8192.h5 > $R/big-u$u.log 2>&1; echo "u$u big rc=$?"; grep -E "^  fp8\S* +ok|FAIL" $R/big-u$u.log | cut -c1-110
done
echo "timing $(( $(date +%s) - t0 )) s"
for u in 0 2; do
timeout 100 ncu --clock-control none --metrics "gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,regex:sm__inst_executed_pipe_[a-z0-9_]*\.avg\.pct_of_peak_sustained_active,regex:sm__pipe_[a-z0-9_]*_cycles_active\.avg\.pct_of_peak_sustained_active,regex:smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active\.ratio" -k regex:mla_decode \
    /tmp/b-u$u/mlabench run --require-gpu --quiet --no-time --variants fp8 /tmp/c/32x8192.h5 > $R/ncu-u$u.txt 2>&1; echo "ncu u$u rc=$?"
grep -E "duration|inst_executed.sum|issue_active|dram__" $R/ncu-u$u.txt | head
grep -E "pipe" $R/ncu-u$u.txt | awk '$NF+0 > 3' | head -30
grep -E "stalled" $R/ncu-u$u.txt | awk '$NF+0 > 0.1' | head -12
done
echo "total $(( $(date +%s) - t0 )) s"
cd $R && tar czf $OUT/r9.tgz --exclude='*.h5' . ; ls -la $OUT
