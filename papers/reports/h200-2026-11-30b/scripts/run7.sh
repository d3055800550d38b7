#!/usr/bin/env bash
# run 7: the full GPU session on HEAD (cluster merge), then HEAD built with
# -DMLAB_NO_CLUSTER on the split cases, same machine and inputs
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
G=/tmp/gs; mkdir -p $G
( cmake -S . -B /tmp/b-nc -G Ninja -DMLAB_GPU=cuda -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DCMAKE_CUDA_FLAGS=-DMLAB_NO_CLUSTER -DMLAB_COMMIT=${1:-}-nocluster && cmake --build /tmp/b-nc -j4 ) > $G/build-nc.log 2>&1 &
t0=$(date +%s)
OUT=$G MLAB_COMMIT=${1:-} timeout 190 bash tests/gpu_session.sh cuda --max-time 0.7
echo "session $(( $(date +%s) - t0 )) s"
wait
S=build-gpu/suite
echo "== no cluster (same commit, -DMLAB_NO_CLUSTER)"
timeout 40 /tmp/b-nc/mlabench run --require-gpu --quiet --variants bf16,fp8 --max-time 0.4 $S/b32_kv8192*.h5 $S/b64_kv8192*.h5 $S/b32_kv1024*.h5 $S/b64_kv1024*.h5 -o $G/nocluster.h5 > $G/bench-nc.log 2>&1; echo "nc rc=$?"
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $G/bench-nc.log | cut -c1-90
grep -E "^== case|^  (bf16|fp8) +[a-zA-Z]+ +[0-9]" $G/bench.log | cut -c1-90
cp $G/results.h5 $G/nocluster.h5 $OUT/ 2>/dev/null
cd $G && tar czf $OUT/gs.tgz --exclude='*.h5' . ; ls -la $OUT; echo "total $(( $(date +%s) - t0 )) s"
