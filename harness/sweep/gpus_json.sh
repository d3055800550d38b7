#!/bin/sh
# gpus_json.sh: print a CTest resource spec file listing this machine's GPUs,
# one slot each, ids = the indexes `mlabench run --device` takes.
#   harness/sweep/gpus_json.sh > gpus.json        (count from nvidia-smi or rocm-smi)
#   harness/sweep/gpus_json.sh 2 > gpus.json      (say the count: a test, or no smi tool)
# With CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES)
# set, the ids are 0 .. (number listed - 1): the runtime renumbers the
# visible devices, and --device N indexes those.
set -eu
# the devices a list makes visible: its entries up to the first negative one
# (-1 hides the rest, as the runtimes read it); an empty list (set, but
# empty) hides them all
count_list() { echo "$1" | tr ',' '\n' | awk '/^-/ { exit } /./ { n++ } END { print n + 0 }'; }
if [ $# -ge 1 ]; then
  n=$1
elif [ "${CUDA_VISIBLE_DEVICES+set}" = set ]; then
  n=$(count_list "$CUDA_VISIBLE_DEVICES")
elif [ "${HIP_VISIBLE_DEVICES+set}" = set ]; then
  n=$(count_list "$HIP_VISIBLE_DEVICES")
elif [ "${ROCR_VISIBLE_DEVICES+set}" = set ]; then
  n=$(count_list "$ROCR_VISIBLE_DEVICES")
elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  n=$(nvidia-smi -L | grep -c '^GPU ')
elif command -v rocm-smi >/dev/null 2>&1; then
  n=$(rocm-smi --showid --csv 2>/dev/null | grep -c '^card')
else
  echo "gpus_json.sh: no nvidia-smi or rocm-smi: give the GPU count (gpus_json.sh N)" >&2
  exit 2
fi
case $n in ''|*[!0-9]*) echo "gpus_json.sh: '$n' is not a GPU count" >&2; exit 2 ;; esac
if [ "$n" -lt 1 ]; then
  echo "gpus_json.sh: no GPU found" >&2
  exit 77
fi
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
i=0
while [ "$i" -lt "$n" ]; do
  sep=","; [ $((i + 1)) -eq "$n" ] && sep=""
  printf '        {"id": "%d", "slots": 1}%s\n' "$i" "$sep"
  i=$((i + 1))
done
printf '      ]\n    }\n  ]\n}\n'
