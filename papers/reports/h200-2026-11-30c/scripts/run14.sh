#!/usr/bin/env bash
# run 14: a second machine: HEAD (kernels 2041b49) on the four large shapes (seed-7 inputs)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; R=/tmp/r; mkdir -p $R /tmp/c
t0=$(date +%s)
( cmake -S . -B /tmp/b -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DMLAB_COMMIT=${1:-} && cmake --build /tmp/b -j16 ) > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s) - t0 )) s"
M=/tmp/b/mlabench
for bl in 32x8192 64x8192 256x1024 256x8192; do Bb=${bl%x*}; L=${bl#*x}; $M gen --batch $Bb --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done; wait
echo "gen $(( $(date +%s) - t0 )) s"
timeout 200 $M run --require-gpu --quiet --variants bf16,fp8,mxfp4,mxfp4_unfused --max-time 0.5 /tmp/c/32x8192.h5 /tmp/c/64x8192.h5 /tmp/c/256x1024.h5 /tmp/c/256x8192.h5 -o $OUT/h200_large_seed7_second_machine.h5 > $R/bench.log 2>&1; echo "bench rc=$?"
grep -E "copy bandwidth|^== case|^  (bf16|fp8|mxfp4|mxfp4_unfused) +ok" $R/bench.log | cut -c1-110 | sort -u -k1,1 -s | head -3
grep -E "^== case|^  (bf16|fp8|mxfp4|mxfp4_unfused) +ok" $R/bench.log | cut -c1-110
cp $R/bench.log $OUT/bench_second_machine.log; echo "total $(( $(date +%s) - t0 )) s"
