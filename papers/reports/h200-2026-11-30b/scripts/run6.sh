#!/usr/bin/env bash
# run 6: the full GPU session on HEAD, then c889935 (v5) fp8 on the same inputs; claim 13 (splits 1)
# then v4 (c889935) timed on the same inputs, same machine
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
G=/tmp/gs; mkdir -p $G
( cmake -S exp/base -B /tmp/b-base -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF && cmake --build /tmp/b-base -j4 ) > $G/build-base.log 2>&1 &
t0=$(date +%s)
OUT=$G MLAB_COMMIT=${1:-} timeout 420 bash tests/gpu_session.sh cuda --max-time 1
echo "session $(( $(date +%s) - t0 )) s"
wait
echo "== v4 (c889935) on the same inputs"
S=build-gpu/suite
timeout 60 /tmp/b-base/mlabench run --require-gpu --quiet --variants fp8 --max-time 0.5 $S/b32_kv8192*.h5 $S/b256_kv1024*.h5 $S/b64_kv8192*.h5 $S/b4_kv8192*.h5 -o $G/v5.h5 > $G/bench-v5.log 2>&1; echo "v5 rc=$?"
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $G/bench-v5.log | cut -c1-90
echo "== claim 13: one split (attention parallel over batch and heads only)"
timeout 60 build-gpu/mlabench run --require-gpu --quiet --variants bf16,fp8 --splits 1 --max-time 0.5 $S/b4_kv8192*.h5 $S/b4_kv1024*.h5 $S/b32_kv8192*.h5 -o $G/splits1.h5 > $G/bench-splits1.log 2>&1; echo "splits1 rc=$?"
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $G/bench-splits1.log | cut -c1-90
cp $G/results.h5 $OUT/ 2>/dev/null; cp $G/v5.h5 $G/splits1.h5 $OUT/ 2>/dev/null
cd $G && tar czf $OUT/gs.tgz --exclude='*.h5' . ; ls -la $OUT; echo "total $(( $(date +%s) - t0 )) s"
