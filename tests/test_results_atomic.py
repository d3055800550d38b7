#!/usr/bin/env python3
"""test_results_atomic.py: a process killed while writing a results file
leaves the previous file intact and no partial file at the destination.

Pins:
  (a) deterministic: a writer killed by SIGKILL in the middle of writing
      (results_write.c's hook MLAB_RESULTS_TEST_KILL=1, after /rows is in the
      temporary) leaves the old file byte for byte and its "<path>.tmp.<pid>"
      temporary (proof that it died mid-write); the next write to the same
      path succeeds and removes that stale temporary;
  (b) random: writers of a ~29 MB file, each killed a random 0-40 ms after
      its temporary appears, leave at the destination either the previous
      bytes or a complete new file that reads back (9 rows, 3.6 M samples),
      never anything else; at least one kill must land mid-write;
  (c) `mlabench export -o` leaves no temporary and a complete CSV.
Usage: test_results_atomic.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import glob
import os
import random
import signal
import subprocess
import sys
import time

from mlabtest import check, finish, programs, scratch


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    tool, mlab = programs()
    tmp = scratch("atomic")
    path = os.path.join(tmp, "r.h5")

    def check_file(p):
        return subprocess.run([tool, "check", p], capture_output=True, text=True).stdout.strip()

    # (a) killed at a known point
    subprocess.run([tool, "write", path, "--seed", "1"], check=True)
    old = read(path)
    env = dict(os.environ, MLAB_RESULTS_TEST_KILL="1")
    p = subprocess.run([tool, "write", path, "--seed", "2", "--samples", "1000"], env=env)
    check(p.returncode == -signal.SIGKILL, f"the hook should SIGKILL the writer (got {p.returncode})")
    check(read(path) == old, "the old results file changed after a killed write")
    temps = glob.glob(path + ".tmp.*")
    check(len(temps) == 1, f"want the killed writer's temporary as proof, found {temps}")
    check(check_file(path) == "ok 9 270", f"old file no longer reads: {check_file(path)}")
    subprocess.run([tool, "write", path, "--seed", "3"], check=True)
    check(glob.glob(path + ".tmp.*") == [], "the next write did not remove the stale temporary")
    check(read(path) != old and check_file(path) == "ok 9 270", "the next write did not land")

    # (b) killed at random moments of a large write
    rng = random.Random(1234)
    prev = read(path)
    outcomes = {"old": 0, "new": 0, "mid-write": 0}
    for i in range(8):
        w = subprocess.Popen([tool, "write", path, "--seed", str(10 + i), "--samples", "400000"])
        # wait for this writer's temporary, then kill it a random moment later
        mine = f"{path}.tmp.{w.pid}"
        while not os.path.exists(mine) and w.poll() is None:
            time.sleep(0.0005)
        time.sleep(rng.uniform(0, 0.04))
        w.send_signal(signal.SIGKILL)
        w.wait()
        outcomes["mid-write"] += os.path.exists(mine)
        now = read(path)
        if now == prev:
            outcomes["old"] += 1
        else:
            ok = check_file(path)
            check(ok == "ok 9 3600000", f"kill {i}: destination is neither old nor complete: {ok}")
            outcomes["new"] += 1
            prev = now
    check(outcomes["mid-write"] > 0, f"no kill landed mid-write ({outcomes}): the test proved nothing")
    subprocess.run([tool, "write", path, "--seed", "99"], check=True)
    check(glob.glob(path + ".tmp.*") == [], "stale temporaries of killed writers remain")

    # (c) export -o is atomic too
    csv = os.path.join(tmp, "r.csv")
    p = subprocess.run([mlab, "export", path, "-o", csv], capture_output=True, text=True)
    check(p.returncode == 0, f"export: {p.stderr}")
    check(glob.glob(csv + ".tmp.*") == [], "export left a temporary")
    with open(csv) as f:
        check(len(f.read().splitlines()) == 10, "export -o: want header + 9 lines")

    return finish("test_results_atomic", tmp, detail=f" (random kills: {outcomes})")


if __name__ == "__main__":
    sys.exit(main())
