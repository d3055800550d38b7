#!/usr/bin/env bash
# run 11: A = HEAD; B = amax maxima in one latency; C = B + f16 split partials (fp8);
# T = C with the phase trace
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT; R=/tmp/r; mkdir -p $R /tmp/c
t0=$(date +%s)
B="-G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release"
( cmake -S exp/base -B /tmp/bA $B -DBUILD_TESTING=OFF && cmake --build /tmp/bA -j4 ) > $R/build-A.log 2>&1 &
( cmake -S . -B /tmp/bB $B -DBUILD_TESTING=OFF && cmake --build /tmp/bB -j4 ) > $R/build-B.log 2>&1 &
( cmake -S . -B /tmp/bC $B -DCMAKE_CUDA_FLAGS=-DMLAB_PART16 && cmake --build /tmp/bC -j4 ) > $R/build-C.log 2>&1 &
( cmake -S . -B /tmp/bT $B -DBUILD_TESTING=OFF "-DCMAKE_CUDA_FLAGS=-DMLAB_PART16 -DMLAB_TRACE" && cmake --build /tmp/bT -j4 ) > $R/build-T.log 2>&1 &
wait
for x in A B C T; do echo "$x: $(tail -1 $R/build-$x.log)"; done
M=/tmp/bA/mlabench
for bl in 32x8192 256x1024 64x8192 4x8192; do Bb=${bl%x*}; L=${bl#*x}; $M gen --batch $Bb --kv-len $L --seed 7 --name $bl -o /tmp/c/$bl.h5 > /dev/null & done; wait
( cd /tmp/bC && ctest -L gpu -LE slow -j4 --output-on-failure > $R/ctest-C.log 2>&1; echo "ctest C rc=$?"; grep -E "tests passed" $R/ctest-C.log )
echo "built+tests+gen $(( $(date +%s) - t0 )) s"
CS="/tmp/c/32x8192.h5 /tmp/c/64x8192.h5 /tmp/c/256x1024.h5 /tmp/c/4x8192.h5"
for rep in 1 2; do for x in A B C; do
  timeout 60 /tmp/b$x/mlabench run --require-gpu --quiet --variants fp8,bf16 --max-time 0.4 $CS -o $R/$x$rep.h5 > $R/$x$rep.log 2>&1; echo "$x$rep rc=$?"
done; done
for x in A B C; do echo "== $x"; for rep in 1 2; do grep -E "^  (bf16|fp8) +ok" $R/$x$rep.log | awk '{printf "%s %s  ", $1, $4}'; echo; done; done
/tmp/bA/mlabench compare $R/A1.h5 $R/C1.h5 2>&1 | grep -E "^[0-9]+x[0-9]+ +(bf16|fp8) " > $R/cmpAC.txt; cat $R/cmpAC.txt
echo "timing $(( $(date +%s) - t0 )) s"
for c in 32x8192 256x1024; do
  timeout 40 /tmp/bT/mlabench run --require-gpu --quiet --variants fp8,bf16 --max-time 0.3 /tmp/c/$c.h5 > $R/tr-$c.out 2> $R/tr-$c.log; echo "trace $c rc=$?"
  python3 exp/trace2.py $R/tr-$c.log
done
echo "total $(( $(date +%s) - t0 )) s"
cd $R && tar czf $OUT/r11.tgz --exclude='*.h5' . ; cp $R/A1.h5 $R/C1.h5 $OUT/; ls -la $OUT
