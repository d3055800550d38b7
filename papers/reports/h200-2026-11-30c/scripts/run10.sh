#!/usr/bin/env bash
# run 10: dynamic tile claims (split blocks of a row share the row's tiles) vs static ranges
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; R=/tmp/r; mkdir -p $R /tmp/c
t0=$(date +%s)
( cmake -S . -B /tmp/bg -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/bg -j14 ) > $R/build.log 2>&1; echo "build rc=$?"; tail -1 $R/build.log
grep -E "registers" $R/build.log | sort | uniq -c | head
M=/tmp/bg/mlabench
for bl in 32x8192 256x1024 64x8192 4x8192 256x8192; do Bb=${bl%x*}; L=${bl#*x}; $M gen --batch $Bb --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done
( cd /tmp/bg && ctest -L gpu -LE slow -j4 --output-on-failure > $R/ctest-dyn.log 2>&1; echo "ctest dyn rc=$?"; grep -E "tests passed|Failed|Skipped" $R/ctest-dyn.log | tail -5 )
( cd /tmp/bg && MLAB_STATIC_TILES=1 ctest -L gpu -LE slow -R "splits|awkward" -j4 --output-on-failure > $R/ctest-static.log 2>&1; echo "ctest static rc=$?"; grep -E "tests passed|Failed" $R/ctest-static.log | tail -3 )
wait
echo "built+tests+gen $(( $(date +%s) - t0 )) s"
C="/tmp/c/32x8192.h5 /tmp/c/64x8192.h5 /tmp/c/256x1024.h5 /tmp/c/4x8192.h5"
for rep in 1 2; do
  timeout 80 $M run --require-gpu --quiet --variants fp8,bf16,mxfp4 --max-time 0.4 $C -o $R/dyn$rep.h5 > $R/dyn$rep.log 2>&1; echo "dyn$rep rc=$?"
  MLAB_STATIC_TILES=1 timeout 80 $M run --require-gpu --quiet --variants fp8,bf16,mxfp4 --max-time 0.4 $C -o $R/sta$rep.h5 > $R/sta$rep.log 2>&1; echo "sta$rep rc=$?"
done
for f in dyn1 sta1 dyn2 sta2; do echo "== $f"; grep -E "^== case|^  (bf16|fp8|mxfp4) +[a-zA-Z]+ +[0-9]" $R/$f.log | cut -c1-100; done
$M compare $R/sta1.h5 $R/dyn1.h5 > $R/compare.txt 2>&1; head -40 $R/compare.txt
timeout 60 $M run --require-gpu --quiet --variants fp8,fp8_exp2rcp,bf16 --max-time 0.8 /tmp/c/256x8192.h5 > $R/big-dyn.log 2>&1; echo "big rc=$?"; grep -E "^  (bf16|fp8\S*) +ok" $R/big-dyn.log | cut -c1-100
echo "total $(( $(date +%s) - t0 )) s"
cd $R && tar czf $OUT/r10.tgz --exclude='*.h5' . ; cp $R/dyn1.h5 $R/sta1.h5 $OUT/; ls -la $OUT
