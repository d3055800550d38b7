#!/usr/bin/env python3
"""test_slice_costs.py: a sweep's slices cut by an earlier run's case times.

Pins:
  - `run` records each finished case's host seconds (/inputs wall_s > 0),
    and `export` repeats them per row (case_wall_s); `merge` keeps them
  - `run --slice K/N --slice-costs PREV.h5`: the cases go by PREV's seconds
    (a case file found by its file name less .h5),
    not their sizes: with one small case made the slowest in PREV (its
    wall_s edited by h5py), it is a slice of its own, which by size it is
    not; the N slices stay disjoint and cover the sweep
  - a case PREV lacks gets its size at PREV's seconds a byte (the slices
    still cover the sweep); none found: the size cut, said so
  - a file with no times (before 2026-12-07: wall_s absent; such a file
    still reads) exits 3, one not HDF5 exits 3, a missing one 4,
    --slice-costs without --slice 2: each one line naming the file
Exit 0 pass, 1 fail, 77 skip (no h5py).
"""
import csv
import io
import os
import shutil
import sys
import tempfile

from mlabtest import bin_or_skip, run, say, finish

BIN = bin_or_skip("h5py", "numpy")
import h5py  # noqa: E402
import numpy as np  # noqa: E402

SWEEP = ["--batch", "4,32", "--kv-len", "256,1024"]


def check(ok, what, detail=""):
    say(ok, what, detail, keep=2000)


def listed(*args):
    p = run([BIN, "run", "--list", *SWEEP, *args])
    return [l.split()[0] for l in p.stdout.splitlines() if "(in memory)" in l], p


def set_times(path, times):
    """/inputs wall_s of the named cases set to times[name] (others as they are)."""
    with h5py.File(path, "r+") as f:
        a = f["inputs"][...]
        for i, r in enumerate(a):
            n = r["case_name"].decode()
            if n in times:
                a[i]["wall_s"] = times[n]
        f["inputs"][...] = a


def main():
    tmp = tempfile.mkdtemp(prefix="mlab_slicecost_")
    prev = os.path.join(tmp, "prev.h5")
    p = run([BIN, "run", "--cpu-only", "--quiet", *SWEEP, "-o", prev])
    with h5py.File(prev) as f:
        t = {r["case_name"].decode(): float(r["wall_s"]) for r in f["inputs"][...]}
    check(p.returncode == 0 and len(t) == 4 and all(v > 0 for v in t.values()),
          "run records each case's seconds (/inputs wall_s > 0)", p.stderr + str(t))
    e = run([BIN, "export", prev])
    rows = list(csv.DictReader(io.StringIO(e.stdout)))
    check(rows and all(abs(float(r["case_wall_s"]) - t[r["case_name"]]) < 1e-6 for r in rows),
          "export's case_wall_s is the row's case's wall_s", e.stderr + str(rows[:1]))

    by_size = [listed("--slice", f"{k}/2")[0] for k in range(2)]
    # the smallest case made by far the slowest: alone in a slice by times
    small = "b4_kv256_s1"
    set_times(prev, {small: 1000.0})
    by_time, outs = [], []
    for k in range(2):
        got, q = listed("--slice", f"{k}/2", "--slice-costs", prev)
        by_time.append(got)
        outs.append(q.stdout + q.stderr)
    flat = sorted(n for s in by_time for n in s)
    check(flat == sorted(t) and [small] in by_time and [small] not in by_size,
          "--slice-costs: the case slowest in PREV is a slice of its own (not by size); the slices cover the sweep",
          f"by time {by_time}, by size {by_size}\n" + "".join(outs))
    check(all("4 of 4 cases found" in o for o in outs), "it says how many cases it found", outs[0])

    # merged files keep the times
    part = os.path.join(tmp, "part.h5")
    p = run([BIN, "run", "--cpu-only", "--quiet", "--batch", "2", "--kv-len", "64", "-o", part])
    merged = os.path.join(tmp, "merged.h5")
    m = run([BIN, "merge", prev, part, "-o", merged])
    with h5py.File(merged) as f:
        mt = {r["case_name"].decode(): float(r["wall_s"]) for r in f["inputs"][...]}
    check(m.returncode == 0 and mt.get(small) == 1000.0 and mt.get("b2_kv64_s1", 0) > 0,
          "merge keeps each case's wall_s", m.stderr + str(mt))
    # a case file is matched by its file name less .h5 (the reader's name for a file that sets none)
    cf = os.path.join(tmp, "b2_kv64_s1.h5")
    g = run([BIN, "gen", "--quiet", "--batch", "2", "--kv-len", "64", "-o", cf])
    q = run([BIN, "run", "--list", cf, *SWEEP, "--slice", "0/2", "--slice-costs", merged])
    check(g.returncode == 0 and "5 of 5 cases found" in q.stdout, "a case file is found by its file name",
          g.stderr + q.stdout + q.stderr)

    # a case PREV lacks: by size at PREV's seconds a byte; the slices still cover
    more = ["--batch", "4,32,64", "--kv-len", "256,1024"]
    sl, o2 = [], ""
    for k in range(3):
        q = run([BIN, "run", "--list", *more, "--slice", f"{k}/3", "--slice-costs", prev])
        sl.append([l.split()[0] for l in q.stdout.splitlines() if "(in memory)" in l])
        o2 += q.stdout + q.stderr
    check(sorted(n for s in sl for n in s) == sorted(t) + ["b64_kv1024_s1", "b64_kv256_s1"] and
          "4 of 6 cases found" in o2 and "by size" in o2, "cases PREV lacks: cut by size at its rate, covered", o2)
    q = run([BIN, "run", "--list", "--batch", "128", "--kv-len", "64,128", "--slice", "0/2", "--slice-costs", prev])
    check(q.returncode == 0 and "0 of 2 cases found" in q.stdout and "cut by size" in q.stdout,
          "no case found: the size cut, said so", q.stdout + q.stderr)

    # bad PREV files and usage
    old = os.path.join(tmp, "old.h5")
    shutil.copy(prev, old)
    with h5py.File(old, "r+") as f:
        a = f["inputs"][...]
        names = [n for n in a.dtype.names if n != "wall_s"]
        b = np.empty(a.shape, dtype=[(n, a.dtype[n]) for n in names])
        for n in names:
            b[n] = a[n]
        attrs = dict(f["inputs"].attrs)
        del f["inputs"]
        f.create_dataset("inputs", data=b)
        for k, v in attrs.items():
            f["inputs"].attrs[k] = v
    r = run([BIN, "report", old])
    check(r.returncode == 0, "a file without wall_s (before 2026-12-07) still reads", r.stderr)
    for path, what, code in ((old, "no case has a time", 3), (os.path.join(tmp, "none.h5"), "cannot open", 4)):
        q = run([BIN, "run", "--list", *SWEEP, "--slice", "0/2", "--slice-costs", path])
        err = q.stderr.strip().splitlines()
        check(q.returncode == code and len(err) == 1 and path in err[0] and what in err[0],
              f"--slice-costs, '{what}': exit {code}, one line naming the file", f"{q.returncode} {q.stderr}")
    junk = os.path.join(tmp, "junk.h5")
    with open(junk, "w") as f:
        f.write("not hdf5\n")
    q = run([BIN, "run", "--list", *SWEEP, "--slice", "0/2", "--slice-costs", junk])
    check(q.returncode == 3 and len(q.stderr.strip().splitlines()) == 1 and junk in q.stderr,
          "--slice-costs on a file that is not HDF5: exit 3, one line", q.stderr)
    q = run([BIN, "run", "--list", *SWEEP, "--slice-costs", prev])
    check(q.returncode == 2 and len(q.stderr.strip().splitlines()) == 1 and "--slice" in q.stderr,
          "--slice-costs without --slice: exit 2, one line", q.stderr)
    return finish("test_slice_costs", tmp)


if __name__ == "__main__":
    sys.exit(main())
