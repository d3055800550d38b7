#!/usr/bin/env bash
# experiment 1: base (HEAD) vs new (e4m3 PV + PDL) vs new without PDL; ncu of fp8 decode
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/smi.txt 2>&1
b() { cmake -S "$1" -B "$2" -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=$3 "${@:4}" && cmake --build "$2" -j6; }
t0=$(date +%s)
( b exp/base /tmp/b-base OFF ) > $R/build-base.log 2>&1 &
( b . /tmp/b-new ON ) > $R/build-new.log 2>&1 &
( b . /tmp/b-nopdl OFF -DCMAKE_CUDA_FLAGS=-DMLAB_NO_PDL ) > $R/build-nopdl.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 )) s"; for x in base new nopdl; do tail -1 $R/build-$x.log; done
grep -A2 "mla_decodeILi1ELb0" $R/build-new.log | grep -E "spill|regis"
mkdir -p /tmp/c
M=/tmp/b-new/mlabench
for bl in 4x1024 32x8192 256x1024 64x8192; do B=${bl%x*}; L=${bl#*x}; $M gen --batch $B --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done; wait
echo "gen $(( $(date +%s) - t0 )) s"
echo "== gpu tests (new)"
( cd /tmp/b-new && ctest -L gpu --output-on-failure ) > $R/ctest-gpu.log 2>&1; echo "ctest rc=$?"; grep -E "tests passed|Failed|Passed|\*\*\*" $R/ctest-gpu.log | tail -12
echo "gpu tests $(( $(date +%s) - t0 )) s"
for x in base nopdl new; do
  echo "== timing $x"
  /tmp/b-$x/mlabench run --require-gpu --quiet --variants bf16,fp8 --max-time 1 /tmp/c/*.h5 -o $R/res-$x.h5 > $R/time-$x.log 2>&1; echo "rc=$?"
  grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $R/time-$x.log | cut -c1-100
done
echo "timing $(( $(date +%s) - t0 )) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for x in base new; do
  timeout 120 $NCU --clock-control none --set full -k regex:mla_decode --launch-count 1 \
    /tmp/b-$x/mlabench run --require-gpu --quiet --no-time --variants fp8 /tmp/c/32x8192.h5 > $R/ncu-$x.txt 2>&1; echo "ncu $x rc=$?"
done
echo "ncu $(( $(date +%s) - t0 )) s"
cuobjdump --dump-sass /tmp/b-new/CMakeFiles/mlab_gpu.dir/variants/fp8.hip.o > $R/fp8-new.sass 2>&1
cd $R && tar czf $OUT/r1.tgz . && ls -la $OUT
