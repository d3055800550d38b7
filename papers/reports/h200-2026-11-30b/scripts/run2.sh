#!/usr/bin/env bash
# experiment 2: base (HEAD: PDL) vs new (fp8 Q.K as f16 HMMA on unpacked K, row-wise loads, rescale skip)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
R=/tmp/r; mkdir -p $R
b() { cmake -S "$1" -B "$2" -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=$3 "${@:4}" && cmake --build "$2" -j8; }
t0=$(date +%s)
( b exp/base /tmp/b-base OFF ) > $R/build-base.log 2>&1 &
( b . /tmp/b-new ON ) > $R/build-new.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 )) s"; for x in base new; do tail -1 $R/build-$x.log; done
grep -A2 "mla_decodeILi" $R/build-new.log | grep -E "spill|regis" | sort | uniq -c
mkdir -p /tmp/c
M=/tmp/b-new/mlabench
for bl in 4x1024 32x8192 256x1024 64x8192 256x8192; do B=${bl%x*}; L=${bl#*x}; $M gen --batch $B --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done
echo "== gpu tests (new)"
( cd /tmp/b-new && ctest -L gpu -LE slow --output-on-failure ) > $R/ctest-gpu.log 2>&1; echo "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $R/ctest-gpu.log | tail -12
wait
echo "gen+tests $(( $(date +%s) - t0 )) s"
for x in new base; do
  echo "== timing $x"
  /tmp/b-$x/mlabench run --require-gpu --quiet --variants bf16,fp8,mxfp4 --max-time 1 /tmp/c/*.h5 -o $R/res-$x.h5 > $R/time-$x.log 2>&1; echo "rc=$?"
  grep -E "^== case|^  (bf16|fp8|mxfp4) +[a-zA-Z]+ +[0-9]" $R/time-$x.log | cut -c1-100
done
echo "timing $(( $(date +%s) - t0 )) s"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for x in new; do
  timeout 150 $NCU --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats --section Occupancy --section LaunchStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" -k regex:mla_decode --launch-count 1 \
    /tmp/b-$x/mlabench run --require-gpu --quiet --no-time --variants fp8 /tmp/c/32x8192.h5 > $R/ncu-$x.txt 2>&1; echo "ncu $x rc=$?"
done
grep -E "stalled.*ratio" $R/ncu-new.txt | awk '$NF+0 > 0.05' | sort -k3 -n -r | head -20
echo "ncu $(( $(date +%s) - t0 )) s"
cuobjdump --dump-sass /tmp/b-new/CMakeFiles/mlab_gpu.dir/variants/fp8.hip.o > $R/fp8-new.sass 2>&1
cd $R && tar czf $OUT/r2.tgz --exclude='*.h5' . ; cp $R/res-new.h5 $OUT/; ls -la $OUT
