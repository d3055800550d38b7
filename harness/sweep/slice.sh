#!/bin/sh
# slice.sh: run one slice of a sweep on the GPU it was given, into its own
# results file. Used by the CTest project of ctest_sweep.sh and by
# slurm_sweep.sbatch; runs by hand too.
#   slice.sh MLABENCH OUTDIR K N [mlabench run options ...]
# Writes OUTDIR/slice_K.h5 (and its log, OUTDIR/slice_K.log) with
# `mlabench run --slice K/N --device D -o OUTDIR/slice_K.h5 options...`.
# D: from CTest's resource allocation (CTEST_RESOURCE_GROUP_0_GPUS =
# "id:D,slots:1"), else 0 (under Slurm, which sets CUDA_VISIBLE_DEVICES to
# the job's GPUs, device 0 is the job's first). Exits with mlabench's code.
set -eu
if [ $# -lt 4 ]; then
  echo "usage: slice.sh MLABENCH OUTDIR K N [mlabench run options ...]" >&2
  exit 2
fi
bin=$1 outdir=$2 k=$3 n=$4
shift 4
dev=0
if [ -n "${CTEST_RESOURCE_GROUP_0_GPUS-}" ]; then
  # "id:1,slots:1" -> 1
  dev=$(echo "$CTEST_RESOURCE_GROUP_0_GPUS" | sed -n 's/^id:\([^,]*\),slots:.*/\1/p')
  if [ -z "$dev" ]; then
    echo "slice.sh: CTEST_RESOURCE_GROUP_0_GPUS='$CTEST_RESOURCE_GROUP_0_GPUS': not id:N,slots:M" >&2
    exit 2
  fi
fi
mkdir -p "$outdir"
echo "slice $k/$n: device $dev on $(hostname)${SLURM_JOB_ID:+, Slurm job $SLURM_JOB_ID}" \
     "(CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset})"
start=$(date +%s)
rc=0
"$bin" run --slice "$k/$n" --device "$dev" -o "$outdir/slice_$k.h5" "$@" > "$outdir/slice_$k.log" 2>&1 || rc=$?
echo "slice $k/$n: exit $rc after $(( $(date +%s) - start )) s; log $outdir/slice_$k.log"
[ "$rc" -eq 0 ] || tail -20 "$outdir/slice_$k.log"
exit "$rc"
