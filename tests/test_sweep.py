#!/usr/bin/env python3
"""test_sweep.py: sweeps without files, slices, the device, honest waits
(issues 13.6, 13.8, 14.1).

Pins:
  - `run --list` names the in-memory cases as `gen --dry-run` names the files
    (suite and a batch x kv-len x q-seq-len sweep)
  - `run --slice K/N`: the N slices of the suite are disjoint, cover it, and
    their estimated costs are within one case of each other; bad K/N exit 2
  - an in-memory case gives the same CPU rows (every error field) as the file
    `gen` writes for it: generation is deterministic and the names pair
  - rows carry the host, and CPU rows device_index -1 (`--device 1 --cpu-only`)
  - `run` without -o warns that nothing is saved; with -o it does not
  - stderr into a file or pipe holds no carriage return (gen and run)
  - --opt=value works for run (--kv-len=..., --slice=...) and check (--requant)
  - contradicting case options exit 2 in run as in gen
Exit 0 pass, 1 fail, 77 skip.
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

BIN = os.environ.get("MLAB_BIN", "")
if not BIN or not os.path.isfile(BIN):
    print(f"SKIP: MLAB_BIN ('{BIN}') is not a file")
    sys.exit(77)
from mlabtest import run, say, finish  # noqa: E402


def check(ok, what, detail=""):
    say(ok, what, detail, keep=2000)


def mlab(*args):
    return run([BIN, *args])


def listed(*args):
    p = mlab("run", "--list", *args)
    return [l.split()[0] for l in p.stdout.splitlines() if "(in memory)" in l], p


def rows(path):
    p = mlab("export", path)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def main():
    tmp = tempfile.mkdtemp(prefix="mlab_sweep_")
    # names: run's in-memory cases = gen's files
    for args in (["--suite"], ["--batch", "4,32", "--kv-len", "1024,8192", "--q-seq-len", "1,3"],
                 ["--kv-lens", "3,0,5", "--tie", "even", "--input-scale", "0.02"]):
        got, p = listed(*args)
        g = mlab("gen", "--dry-run", *args, "-o", os.path.join(tmp, "d"))
        want = [os.path.basename(l.split()[0])[:-3] for l in g.stdout.splitlines() if ".h5" in l]
        check(got == want and got, f"run --list {' '.join(args)} names cases as gen does", f"{got} vs {want}")

    # slices
    suite, _ = listed("--suite")
    parts = []
    for k in range(3):
        got, p = listed("--suite", f"--slice={k}/3")
        parts.append(got)
    flat = sorted(n for part in parts for n in part)
    check(flat == sorted(suite) and all(parts), "--slice K/3 of the suite: disjoint, non-empty, covering it",
          str(parts))

    def cost(name):  # the documented estimate: file bytes + 1 GB
        b = int(name.split("_")[0][1:]); kv = int(name.split("_")[1][2:])
        return b * 16 * 576 * 2 + b * kv * (1152 + 576 + 288 + 18) + 1e9
    loads = [sum(cost(n) for n in part) for part in parts]
    check(max(loads) - min(loads) <= max(cost(n) for n in suite),
          "the slices' estimated costs differ by less than the largest case", str(loads))
    for bad in ("2/2", "1", "a/3", "0/0"):
        p = mlab("run", "--list", "--suite", "--slice", bad)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
              f"--slice {bad} exits 2 with one line", p.stderr)

    # in memory = from the file
    f = os.path.join(tmp, "c.h5")
    p = mlab("gen", "--kv-lens", "40,0", "--q-seq-len", "2", "-o", f)
    r1, r2 = os.path.join(tmp, "file.h5"), os.path.join(tmp, "mem.h5")
    a = subprocess.run([BIN, "run", "--cpu-only", f, "-o", r1], capture_output=True, text=True)
    b = subprocess.run([BIN, "run", "--cpu-only", "--kv-lens=40,0", "--q-seq-len=2", "--device", "1",
                        "-o", r2], capture_output=True, text=True)
    ra, rb = rows(r1), rows(r2)
    errs = [k for k in (ra[0].keys() if ra else []) if k.startswith(("kernel_", "total_")) and k != "kernel_tol"]
    # a row for each CPU reference (run_rows.c cpu_refs)
    same = (len(ra) == len(rb) >= 8 and all(x["case_name"] == y["case_name"] == "b2_kv40-0_s1_q2" and
                                            all(x[k] == y[k] for k in errs) for x, y in zip(ra, rb)))
    check(a.returncode == 0 and b.returncode == 0 and same,
          "an in-memory case gives the CPU rows of gen's file (name and every error field)",
          a.stderr + b.stderr + str(ra[:1]) + str(rb[:1]))
    check(rb and all(r["device_index"] == "-1" and r["host"] for r in rb),
          "rows carry the host; CPU rows device_index -1", str(rb[:1]))
    p = mlab("run", "--cpu-only", "--batch", "1", "--kv-len", "16")
    check(p.returncode == 0 and "no -o" in p.stderr and "not saved" in p.stderr,
          "run without -o warns that nothing is saved", p.stderr)
    check("not saved" not in b.stderr, "run with -o gives no such warning", b.stderr)
    g = mlab("gen", "--batch", "1", "--kv-len", "16384", "-o", os.path.join(tmp, "big.h5"))
    check(all("\r" not in x.stderr for x in (a, b, p, g)) and g.returncode == 0,
          "stderr into a pipe holds no carriage return (gen, run)", repr(g.stderr[-300:]))
    check("GB on disk" in g.stderr and "about" in g.stderr, "gen states size and time before it starts",
          g.stderr)
    env = dict(os.environ, MLAB_PROGRESS_LOG_S="0")
    g2 = subprocess.run([BIN, "gen", "--batch", "1", "--kv-len", "16384", "-o", os.path.join(tmp, "big2.h5")],
                        capture_output=True, text=True, env=env)
    steps = [l for l in g2.stderr.splitlines() if "generating (" in l]
    check(g2.returncode == 0 and len(steps) >= 32 and "\r" not in g2.stderr and
          any("(kv)" in l for l in steps) and any("(mxfp4) 100%" in l for l in steps),
          "gen reports progress within a case (kv, mxfp4 steps) as plain lines in a log", g2.stderr[-600:])
    c = mlab("check", "--requant", f)
    check(c.returncode == 0 and "requant:" in c.stdout, "check --requant after the file name", c.stderr)
    p = mlab("run", "--list", "--batch", "2", "--kv-lens", "100,0,300")
    check(p.returncode == 2 and "--kv-lens lists 3" in p.stderr, "run refuses --batch 2 --kv-lens 100,0,300",
          p.stderr)
    return finish("test_sweep", tmp)


if __name__ == "__main__":
    sys.exit(main())
