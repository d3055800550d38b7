#!/usr/bin/env python3
"""test_results_odd_rows.py: results files with a '/' in a variant's or a
case's name, or with one (case, variant) many times in a run: history and
the other results commands answer them, no crash.

mlabench's own writers make neither (a submission peer is named
sub:<file stem>, a case name holds no '/', run refuses a case twice and
merge a row twice), but the reader takes any such file, and "whatever it
holds, mlabench answers with one line and an exit code, never a crash"
(data/README.md, "Reading files you did not write"). 6ce44c0's history read
through NULL for a variant with a '/' where no row is named as its key
("case/variant") split at the key's last '/', and wrote a variant's ratios
past their buffer (sized by the keys) for a run with more rows of a variant
than there are keys. The files: results_tool's (no noise; the second run
1.10 times the first), rewritten with h5py. Pins:
  - (a) names: each case's peer row named sub:dir/x (a submission's name
    with a folder: no case CASE/sub:dir exists), and a case c with a variant
    x/v beside a case c/x with a variant v (one key c/x/v): history exits 0
    with nothing on stderr; a table line per key in the first run's order,
    each the first us of the row it names (c/x/v: the key split at its last
    '/', (c/x, v)'s) and 1.000 1.100; the geometric means 1.000 1.100 for
    each of the six variants (x/v and v apart);
  - (b) repeats: 1,000 copies of one row (twice its median) after the 9 rows
    of each run, 1,003 rows of bf16 and 9 keys: history exits 0 with nothing
    on stderr; 9 lines, each key once, 1.000 1.100 (a key's row in a run is
    its first in the file); the geometric means of fp8 and mxfp4 1.000
    1.100 and bf16's over all 1,003 rows of each run (2^(1000/1003), 1.10
    times that);
  - both with the figures (gnuplot, or --if-available without it): exit 0,
    nothing on stderr, the kept data a line per row of the two runs;
  - report, export (csv, json, two runs by series), compare (text, json),
    plot (--if-available) and merge of the same files: exit 0 with nothing on
    stderr (merge of the repeats: exit 10, one line naming the row); report
    keeps cases c and c/x apart and the peer's column; export a line per
    row; compare a pair per row (the k-th copy with the k-th).
Run under the sanitizers' build (CI's second ctest pass), any read past a
buffer is an exit 1 with its report on stderr.
Usage: test_results_odd_rows.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no h5py / numpy).
"""
import csv
import io
import json
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

COPIES = 1000
TIMING = ("median_us", "q1_us", "q3_us", "min_us", "mean_us", "stdev_us")


def rewrite(path, picks):
    """The file's rows replaced by picks: (source row, {field: value}, time scale) each,
    its samples with it (scaled), /samples_offset recomputed."""
    with h5py.File(path, "r+") as f:
        rows, off, smp = f["rows"][...], f["samples_offset"][...], f["samples_us"][...]
        attrs = {k: dict(f[k].attrs) for k in ("rows", "samples_offset", "samples_us")}
        new_rows, new_smp = [], []
        for i, over, scale in picks:
            r = rows[i].copy()
            for k, v in over.items():
                r[k] = v
            for k in TIMING:
                r[k] *= scale
            new_rows.append(r)
            new_smp.append(smp[off[i]:off[i + 1]] * scale)
        data = {"rows": np.array(new_rows, dtype=rows.dtype),
                "samples_offset": np.concatenate([[0], np.cumsum([len(s) for s in new_smp])]).astype(off.dtype),
                "samples_us": np.concatenate(new_smp).astype(smp.dtype)}
        for k, d in data.items():
            del f[k]
            f.create_dataset(k, data=d)
            for a, v in attrs[k].items():
                f[k].attrs[a] = v


def table(out):
    """history's table (lines split) and its geometric means ({variant: ratios})."""
    lines = out.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("case/variant")), None)
    rows, means = [], {}
    if head is None:
        return rows, means
    i = head + 1
    while i < len(lines) and lines[i].strip():
        rows.append(lines[i].split())
        i += 1
    past = [l for l in lines[i:] if l.strip()]
    if past and past[0].startswith("geometric mean"):
        for l in past[1:]:
            w = l.split()
            if len(w) != 3:
                break
            means[w[0]] = w[1:]
    return rows, means


def main():
    tool, mlab = programs()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    os.environ.setdefault("MLAB_PLOTS_DIR", os.path.join(src, "plots"))
    tmp = scratch("odd_rows")

    def write(name, *args):
        path = os.path.join(tmp, name)
        subprocess.run([tool, "write", path, "--noise", "0", "--samples", "5", *args], check=True)
        return path

    def run(*args):
        p = subprocess.run([mlab, *args], capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def rows_of(path):
        with h5py.File(path, "r") as f:
            return f["rows"][...]

    # (a) names with '/'
    names = []
    for name, seed, scale in (("s1.h5", "1", "1"), ("s2.h5", "2", "1.10")):
        p = write(name, "--seed", seed, "--scale", scale, "--label", name[:2], "--peer", "1")
        picks = []
        for i, r in enumerate(rows_of(p)):
            over = {}
            if r["variant"] == b"flashpeer":
                over = {"variant": b"sub:dir/x"}
            elif r["case_name"] == b"b64_kv8192_s1360" and r["variant"] == b"fp8":
                over = {"case_name": b"c", "variant": b"x/v"}
            elif r["case_name"] == b"b64_kv8192_s1360" and r["variant"] == b"mxfp4":
                over = {"case_name": b"c/x", "variant": b"v"}
            picks.append((i, over, 1.0))
        rewrite(p, picks)
        names.append(p)
    s1 = rows_of(names[0])
    first = {}  # key -> the first us of the row its line names
    for r in s1:
        c, v = r["case_name"].decode(), r["variant"].decode()
        if (c, v) != ("c", "x/v"):  # c/x/v: split at the last '/', (c/x, v)'s
            first[f"{c}/{v}"] = "%.4g" % r["median_us"]
    keys = list(dict.fromkeys(f"{r['case_name'].decode()}/{r['variant'].decode()}" for r in s1))

    rc, out, err = run("history", *names, "--no-plot")
    check(rc == 0 and err == "", f"history of variants named with '/': exit {rc}\n{err[-2000:]}")
    lines, means = table(out)
    check([l[0] for l in lines] == keys, f"history ('/'): the table's keys {[l[0] for l in lines]}, want {keys}")
    bad = [l for l in lines if len(l) != 4 or l[1] != first.get(l[0]) or l[2:] != ["1.000", "1.100"]]
    check(lines and not bad, f"history ('/'): lines not KEY FIRST_US 1.000 1.100: {bad}\n{out}")
    want = {v: ["1.000", "1.100"] for v in ("bf16", "sub:dir/x", "fp8", "mxfp4", "x/v", "v")}
    check(means == want, f"history ('/'): geometric means {means}, want {want}")

    # (b) one row 1,000 times in each run: more rows of bf16 than keys
    reps = []
    for name, seed, scale in (("d1.h5", "1", "1"), ("d2.h5", "2", "1.10")):
        p = write(name, "--seed", seed, "--scale", scale, "--label", name[:2])
        n = len(rows_of(p))
        rewrite(p, [(i, {}, 1.0) for i in range(n)] + [(0, {}, 2.0)] * COPIES)
        reps.append(p)
    d1 = rows_of(reps[0])
    keys = [f"{r['case_name'].decode()}/{r['variant'].decode()}" for r in d1[:9]]
    rc, out, err = run("history", *reps, "--no-plot")
    check(rc == 0 and err == "", f"history of a run with a row {COPIES + 1} times: exit {rc}\n{err[-2000:]}")
    lines, means = table(out)
    check([l[0] for l in lines] == keys, f"history (repeats): the table's keys {[l[0] for l in lines]}, want {keys}")
    bad = [l for l in lines if len(l) != 4 or l[2:] != ["1.000", "1.100"]]
    check(lines and not bad, f"history (repeats): lines not KEY FIRST_US 1.000 1.100 (each run's first row): {bad}")
    g = 2 ** (COPIES / (COPIES + 3))  # bf16: 3 rows at 1, 1,000 at 2 (against the first row)
    got = means.get("bf16", [])
    check(len(got) == 2 and abs(float(got[0]) - g) < 0.0015 and abs(float(got[1]) - 1.1 * g) < 0.0015,
          f"history (repeats): bf16's geometric means {got}, want {g:.3f} {1.1 * g:.3f}")
    check(means.get("fp8") == ["1.000", "1.100"] and means.get("mxfp4") == ["1.000", "1.100"],
          f"history (repeats): geometric means {means}")

    # with the figures, the data kept: a line per row of the two runs
    for what, files in (("'/'", names), ("repeats", reps)):
        fig = os.path.join(tmp, "fig-" + os.path.basename(files[0])[0])
        rc, out, err = run("history", *files, "--if-available", "--keep-data", "--out", fig)
        data = os.path.join(fig, "history.csv")
        n = sum(len(rows_of(f)) for f in files)
        got = len(open(data).read().splitlines()) - 1 if os.path.exists(data) else None
        check(rc == 0 and err == "" and ("gnuplot not found" in out or got == n),
              f"history ({what}) with figures: exit {rc}, {got} data lines (want {n})\n{err[-2000:]}")

    # the other results commands on the same files
    for what, (a, b) in (("'/'", names), ("repeats", reps)):
        nrows = len(rows_of(a))
        for args in (("report", a), ("export", a), ("export", "--format", "json", a),
                     ("export", "--order", "series", a, b), ("compare", a, b),
                     ("compare", "--format", "json", a, b),
                     ("plot", a, "--if-available", "--out", os.path.join(tmp, "plot"))):
            rc, out, err = run(*args)
            check(rc == 0 and err == "", f"{' '.join(args[:1])} ({what}): exit {rc}\n{err[-2000:]}")
            if rc:
                continue
            if args[0] == "export" and args[1] == "--format":
                check(len(json.loads(out)["rows"]) == nrows, f"export json ({what}): not a record per row")
            elif args[0] == "export":
                recs = list(csv.DictReader(io.StringIO(out)))
                check(len(recs) == nrows * (len(args) - 3 if args[1] == "--order" else 1),
                      f"export ({what}): {len(recs)} lines")
            elif args[0] == "compare" and args[1] == "--format":
                s = json.loads(out)["summary"]
                check(s["pairs"] + s["peer_pairs"] == nrows, f"compare json ({what}): {s}, want {nrows} pairs")
        merged = os.path.join(tmp, "merged.h5")
        rc, out, err = run("merge", a, "-o", merged)
        if what == "repeats":
            check(rc == 10 and err.count("\n") == 1 and "row b4_kv1024_s4217/bf16 is also in" in err
                  and not os.path.exists(merged), f"merge ({what}): exit {rc}\n{out}{err}")
        else:
            check(rc == 0 and err == "" and f"{nrows} rows from 1 files" in out, f"merge ({what}): exit {rc}\n{err}")
        if os.path.exists(merged):
            os.unlink(merged)
    rc, out, err = run("report", names[0])
    head = out.split("**Cold median, us**")[-1].split("\n\n")[1] if "**Cold median" in out else ""
    check("| case | bf16 | fp8 | x/v | mxfp4 | v | sub:dir/x |" in head and "\n| c | " in head and
          "\n| c/x | " in head, f"report ('/'): the headline's cases and variants\n{head}")
    return finish("test_results_odd_rows", tmp)


if __name__ == "__main__":
    sys.exit(main())
