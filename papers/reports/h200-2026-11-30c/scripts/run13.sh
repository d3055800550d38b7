#!/usr/bin/env bash
# run 13: the full GPU session on 2041b49 (v6: f16 partials, one-latency amax,
# reciprocal divisions, vector epilogue), then v5 (2ae5705) and a67d97b on the
# same recorded inputs, and the phase trace of 2041b49
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
G=/tmp/gs; mkdir -p $G
B="-G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF"
( cmake -S exp/base -B /tmp/bA $B -DMLAB_COMMIT=2ae5705 && cmake --build /tmp/bA -j3 ) > $G/build-v5.log 2>&1 &
( cmake -S exp/v6 -B /tmp/b6 $B -DMLAB_COMMIT=a67d97b && cmake --build /tmp/b6 -j3 ) > $G/build-a67.log 2>&1 &
( cmake -S . -B /tmp/bT $B -DCMAKE_CUDA_FLAGS=-DMLAB_TRACE -DMLAB_COMMIT=${1:-}-trace && cmake --build /tmp/bT -j3 ) > $G/build-trace.log 2>&1 &
t0=$(date +%s)
OUT=$G MLAB_COMMIT=${1:-} timeout 260 bash tests/gpu_session.sh cuda --max-time 0.7
echo "session $(( $(date +%s) - t0 )) s"
wait
S=build-gpu/suite
timeout 120 /tmp/bA/mlabench run --require-gpu --quiet --max-time 0.7 $S/*.h5 -o $G/v5.h5 > $G/bench-v5.log 2>&1; echo "v5 rc=$?"
timeout 60 /tmp/b6/mlabench run --require-gpu --quiet --variants fp8,fp8_exp2rcp,bf16 --max-time 0.5 $S/b32_kv8192*.h5 $S/b256_kv1024*.h5 $S/b64_kv8192*.h5 $S/b4_kv1024*.h5 -o $G/a67.h5 > $G/bench-a67.log 2>&1; echo "a67 rc=$?"
./build-gpu/mlabench compare $G/v5.h5 $G/results.h5 > $G/compare_v5_v6.txt 2>&1
./build-gpu/mlabench compare $G/a67.h5 $G/results.h5 > $G/compare_a67_v6.txt 2>&1
grep -E "^[a-z0-9_]+ +(bf16|fp8|mxfp4)\S* " $G/compare_v5_v6.txt | cut -c1-150
grep -E "^[a-z0-9_]+ +(bf16|fp8)\S* " $G/compare_a67_v6.txt | cut -c1-150
for c in b32_kv8192 b256_kv1024; do
  timeout 40 /tmp/bT/mlabench run --require-gpu --quiet --variants fp8 --max-time 0.3 $S/$c*.h5 > /dev/null 2> $G/trace-$c.log; echo "trace $c rc=$?"
  python3 exp/trace2.py $G/trace-$c.log
done
cp $G/results.h5 $OUT/h200_suite_v6.h5; cp $G/v5.h5 $OUT/h200_suite_v5_same_machine.h5; cp $G/a67.h5 $OUT/
cd $G && tar czf $OUT/gs.tgz --exclude='*.h5' . ; ls -la $OUT; echo "total $(( $(date +%s) - t0 )) s"
