#!/usr/bin/env bash
# experiment 5: L2 prefetch distance (MLA_PF 0 = HEAD c889935, 1, 2) and the full-tile load path
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=/tmp/r; mkdir -p $R
b() { cmake -S . -B "$1" -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=$2 "-DCMAKE_CUDA_FLAGS=$3" && cmake --build "$1" -j4; }
t0=$(date +%s)
( b /tmp/b-pf0 OFF "-DMLA_PF=0" ) > $R/build-pf0.log 2>&1 &
( b /tmp/b-pf1 OFF "-DMLA_PF=1" ) > $R/build-pf1.log 2>&1 &
( b /tmp/b-pf2 OFF "-DMLA_PF=2" ) > $R/build-pf2.log 2>&1 &
( b /tmp/b-pf2ld ON "-DMLA_PF=2 -DMLA_LD_FAST" ) > $R/build-pf2ld.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 )) s"; for x in pf0 pf1 pf2 pf2ld; do tail -1 $R/build-$x.log; done
grep -A2 "mla_decodeILi" $R/build-pf2ld.log | grep -E "spill|regis" | sort | uniq -c
mkdir -p /tmp/c
M=/tmp/b-pf0/mlabench
for bl in 4x1024 32x8192 256x1024 64x8192 256x8192; do B=${bl%x*}; L=${bl#*x}; $M gen --batch $B --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done
( cd /tmp/b-pf2ld && ctest -L gpu -LE slow --output-on-failure ) > $R/ctest-gpu.log 2>&1; echo "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $R/ctest-gpu.log | tail -12
wait
echo "gen+tests $(( $(date +%s) - t0 )) s"
for x in pf1 pf2 pf2ld pf0; do
  echo "== timing $x"
  /tmp/b-$x/mlabench run --require-gpu --quiet --variants bf16,fp8 --max-time 0.5 /tmp/c/*.h5 -o $R/res-$x.h5 > $R/time-$x.log 2>&1; echo "rc=$?"
  grep -E "^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $R/time-$x.log | cut -c1-60 | paste -sd' ' | sed 's/  */ /g'
done
echo "timing $(( $(date +%s) - t0 )) s"
grep -h "^== case" $R/time-pf0.log | cut -c1-20
cd $R && tar czf $OUT/r5.tgz . ; ls -la $OUT
