#!/usr/bin/env bash
# run 4: the full GPU session on HEAD (tests, recorded competition inputs, all variants),
# then v4 (01c4aa4) timed on the same inputs, same machine
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
G=/tmp/gs; mkdir -p $G
( cmake -S exp/base -B /tmp/b-base -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF && cmake --build /tmp/b-base -j4 ) > $G/build-base.log 2>&1 &
t0=$(date +%s)
OUT=$G MLAB_COMMIT=${1:-} timeout 420 bash tests/gpu_session.sh cuda --max-time 1
echo "session $(( $(date +%s) - t0 )) s"
wait
echo "== v4 (01c4aa4) on the same inputs"
timeout $(( 575 - ($(date +%s) - t0) )) /tmp/b-base/mlabench run --require-gpu --quiet --variants bf16,fp8 --max-time 0.5 build-gpu/suite/*.h5 -o $G/v4.h5 > $G/bench-v4.log 2>&1; echo "v4 rc=$?"
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $G/bench-v4.log | cut -c1-90
cp $G/results.h5 $OUT/ 2>/dev/null; cp $G/v4.h5 $OUT/ 2>/dev/null
cd $G && tar czf $OUT/gs.tgz --exclude='*.h5' . ; ls -la $OUT; echo "total $(( $(date +%s) - t0 )) s"
