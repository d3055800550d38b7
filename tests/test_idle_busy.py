#!/usr/bin/env python3
"""test_idle_busy.py: a run that shares its GPU with another process says so.

A run timed while another process's kernels run on the same GPU is slower
for a reason that is not the kernel's, and its file said nothing of it.
`mlabench run` leaves the GPU idle MLAB_IDLE_CHECK_S (0.5 s) at its start
and at its end and reads NVML's utilization in that time
(mlab_gpu_idle_busy): env idle_busy_pct, a line on stderr, report and
compare say it. Pins (label gpu; exit 77 without a GPU, or where NVML's
samples cannot be read: -1 in the file, said, never passed):
  - a run alone on the GPU: idle_busy_pct 0, no such line;
  - a run while another mlabench samples a long call on the same GPU (the
    neighbour, in the background, until nvidia-smi sees the GPU busy):
    idle_busy_pct > 0, the line on stderr naming the GPU; `report` says
    it, `compare` of the two files names the busy one;
  - MLAB_IDLE_CHECK_S=0: not read (-1), no line; a value that is not
    seconds from 0 to 10 is exit 2, one line, before any work (checked
    first, without a GPU too: a failure there fails the test).
Exit 0 pass, 1 fail, 77 skip.
"""
import os
import subprocess
import sys
import tempfile
import time

from mlabtest import bin_or_skip, run, say, finish

BIN = bin_or_skip("h5py")
import h5py  # noqa: E402

SMALL = ["run", "--require-gpu", "--quiet", "--batch", "4", "--kv-len", "1024", "--variants", "fp8_wgmma",
         "--max-time", "0.1"]
LINE = "another process ran kernels on GPU"


def busy_pct(path):
    with h5py.File(path) as f:
        return int(f.attrs["idle_busy_pct"])


def gpu_util():
    p = run(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits", "-i", "0"])
    try:
        return int(p.stdout.split()[0])
    except (ValueError, IndexError):
        return -1


def main():
    tmp = tempfile.mkdtemp(prefix="mlab_idle_")
    for bad in ("x", "-1", "11", "nan"):
        b = subprocess.run([BIN, "run", "--cpu-only", "--batch", "1", "--kv-len", "16", "-o",
                            os.path.join(tmp, "bad.h5")], capture_output=True, text=True,
                           env=dict(os.environ, MLAB_IDLE_CHECK_S=bad))
        err = b.stderr.strip().splitlines()
        if not (b.returncode == 2 and len(err) == 1 and "MLAB_IDLE_CHECK_S" in err[0] and
                not os.path.exists(os.path.join(tmp, "bad.h5"))):
            say(False, f"MLAB_IDLE_CHECK_S={bad}: exit 2, one line, nothing written", f"{b.returncode} {b.stderr}")
            return finish("test_idle_busy", tmp)
    say(True, "a bad MLAB_IDLE_CHECK_S: exit 2, one line, nothing written")
    alone = os.path.join(tmp, "alone.h5")
    p = run([BIN, *SMALL, "-o", alone])
    if p.returncode == 77:
        print("SKIP: no GPU")
        return 77
    if p.returncode != 0:
        say(False, "a run alone on the GPU", p.stdout + p.stderr)
        return finish("test_idle_busy", tmp)
    pa = busy_pct(alone)
    if pa < 0:
        print("SKIP: NVML's utilization samples cannot be read here (idle_busy_pct -1)")
        return 77
    say(pa == 0 and LINE not in p.stderr, "a run alone: idle_busy_pct 0, no line", f"{pa}\n{p.stderr}")

    bg = subprocess.Popen([BIN, "run", "--require-gpu", "--quiet", "--batch", "64", "--kv-len", "8192",
                           "--variants", "bf16_wgmma,fp8_wgmma,mxfp4_wgmma", "--max-time", "10", "--min-samples",
                           "100000", "--max-samples", "1000000", "-o", os.path.join(tmp, "bg.h5")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0, u = time.monotonic(), -1
        while time.monotonic() - t0 < 120 and bg.poll() is None:
            u = gpu_util()
            if u >= 50:
                break
            time.sleep(0.5)
        say(u >= 50, "the neighbour keeps the GPU busy (nvidia-smi)", f"utilization {u}%")
        shared = os.path.join(tmp, "shared.h5")
        q = run([BIN, *SMALL, "-o", shared])
        ps = busy_pct(shared) if q.returncode == 0 else -2
        say(q.returncode == 0 and ps > 0 and f"{LINE} 0" in q.stderr,
            "a run beside another process: idle_busy_pct > 0, one line on stderr", f"{ps}\n{q.stderr}")
        off = os.path.join(tmp, "off.h5")
        z = subprocess.run([BIN, *SMALL, "-o", off], capture_output=True, text=True,
                           env=dict(os.environ, MLAB_IDLE_CHECK_S="0"))
        say(z.returncode == 0 and busy_pct(off) == -1 and LINE not in z.stderr,
            "MLAB_IDLE_CHECK_S=0: not read (-1), no line", z.stderr)
    finally:
        bg.kill()
        bg.wait()
    r = run([BIN, "report", shared])
    say("Another process ran kernels on this GPU" in r.stdout, "report says it", r.stdout[:600])
    c = run([BIN, "compare", alone, shared, "--threshold", "0.5"])
    say(f"{shared}: another process ran kernels" in c.stderr and f"{alone}: another" not in c.stderr,
        "compare names the file whose run shared its GPU", c.stderr)
    return finish("test_idle_busy", tmp)


if __name__ == "__main__":
    sys.exit(main())
