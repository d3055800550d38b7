#!/bin/sh
# test_slurm.sh: harness/sweep/slurm_sweep.sbatch against a real one-node
# Slurm (Debian's slurm-wlm) that this test starts on this machine and stops
# again: its own munged (own key and socket), slurmctld and slurmd (own
# slurm.conf for this host, free ports, two fake GPUs so that the script's
# --gpus=1 is honoured), a 2-task array of CPU-only slices; checks that both
# tasks ended with 0, each was given its own GPU, and both results files. Every daemon it started is stopped on exit, by
# its pid.
#   test_slurm.sh MLABENCH SRC
# Exit 0 pass, 1 fail, 77 skip (no slurm-wlm or munge, or not root).
set -u
bin=$1 src=$2
for p in slurmctld slurmd munged sbatch sinfo scontrol; do
  command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
  command -v "$p" >/dev/null 2>&1 || { echo "SKIP: $p not installed (apt-get install slurm-wlm munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: slurmd needs root"; exit 77; }
t=$(mktemp -d /tmp/mlab_slurm_XXXXXX)
chmod 755 "$t"
cleanup() {
  # the daemons this test started, by the pids they wrote: TERM all, wait up
  # to 5 s, then KILL what is left
  started=""
  for f in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munged.pid"; do
    [ -s "$f" ] && started="$started $(cat "$f")"
  done
  for pid in $started; do kill "$pid" 2>/dev/null; done
  i=0
  for pid in $started; do
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
  done
  [ "${keep:-0}" = 1 ] && { echo "files kept in $t"; return; }
  rm -rf "$t"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; for l in "$t"/*.log; do echo "--- $l"; tail -15 "$l"; done; keep=1; exit 1; }

host=$(hostname -s)
port=$(( 20000 + $$ % 20000 ))
# munge: own key, socket, pid and log
dd if=/dev/urandom of="$t/munge.key" bs=1024 count=1 2>/dev/null; chmod 400 "$t/munge.key"
mkdir -p "$t/munge"; chmod 700 "$t/munge"
munged --force --key-file="$t/munge.key" --socket="$t/munge/munge.sock" --pid-file="$t/munged.pid" \
       --log-file="$t/munged.log" --seed-file="$t/munge.seed" || fail "munged did not start"
mkdir -p "$t/state" "$t/spool"
cat > "$t/slurm.conf" <<CONF
ClusterName=mlabtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$t/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP
CONF
# Slurm drops file-less GPUs and wants character devices: /dev/null and
# /dev/zero stand for two GPUs (task/none: nothing is constrained)
printf 'Name=gpu File=/dev/null\nName=gpu File=/dev/zero\n' > "$t/gres.conf"
export SLURM_CONF="$t/slurm.conf"
slurmctld -f "$t/slurm.conf" -i || fail "slurmctld did not start"
slurmd -f "$t/slurm.conf" -N "$host" || fail "slurmd did not start"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
  i=$((i + 1)); [ $i -gt 60 ] && fail "the node did not become idle in 30 s ($(sinfo -h -o %t 2>&1))"
  sleep 0.5
done
echo "slurm up: $(sinfo -h -o '%P %D %t %G' 2>&1)"
out="$t/out"
start=$(date +%s)
jid=$(sbatch --parsable --array=0-1 --chdir="$t" --time=5 "$src/harness/sweep/slurm_sweep.sbatch" "$out" "$bin" \
       --cpu-only --quiet --batch 1,2,3 --kv-len 16 2> "$t/sbatch.txt") || fail "sbatch refused the job: $(cat "$t/sbatch.txt")"
# wait for the array (sbatch --wait polls every 2-10 s; this every 0.2 s)
i=0
while [ -n "$(squeue -h -j "$jid" 2>/dev/null)" ]; do
  i=$((i + 1)); [ $i -gt 600 ] && fail "the array job $jid did not end in 120 s"
  sleep 0.2
done
codes=$(scontrol -o show job "$jid" | sed -n 's/.* ExitCode=\([0-9:]*\) .*/\1/p' | tr '\n' ' ')
rc=0; [ "$codes" = "0:0 0:0 " ] || rc=1
echo "array job $jid: tasks ended with exit codes $codes after $(( $(date +%s) - start )) s"
for f in "$t"/slurm-*.out; do echo "--- $(basename "$f")"; cat "$f"; done
[ $rc -eq 0 ] || fail "the array job failed"
want=$("$bin" run --list --batch 1,2,3 --kv-len 16 | awk '/[(]in memory[)]/ {print $1}' | sort | tr '\n' ' ')
got=""
for k in 0 1; do
  [ -s "$out/slice_$k.h5" ] || fail "slice $k wrote no results file"
  grep -q "GPUs [0-9]" "$t"/slurm-*_$k.out || fail "task $k was given no GPU (--gpus=1 not honoured)"
  names=$("$bin" export "$out/slice_$k.h5" | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "case_name") c = i; next} {print $c}' | sort -u | tr '\n' ' ')
  [ -n "$names" ] || fail "slice $k's results file has no rows"
  echo "slice_$k.h5: $names"
  got="$got$names"
done
got=$(echo "$got" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
[ "$got" = "$want" ] || fail "the slices hold '$got', the sweep is '$want'"
echo "ok: a 2-task Slurm array ran both slices; their results files hold every case once"
exit 0
