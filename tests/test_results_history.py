#!/usr/bin/env python3
"""test_results_history.py: `mlabench history` over several runs.

Pins:
  - fewer than two runs are refused (exit 2, "at least two runs"): one file,
    and a folder holding one results file;
  - three runs in the order given: the table's first run is the first file,
    its ratios are 1.000, and a run drawn 10% slower reads ~1.10 (within
    noise), also in the per-variant geometric mean;
  - --by-label orders runs by label with numbers compared as numbers
    (rocm-6.4 < rocm-6.10 < rocm-7.0) whatever the order given; a run without
    a label is refused with --by-label (exit 2);
  - a folder means its *.h5 files by name;
  - --variants keeps only those rows; a filter matching nothing is exit 2;
  - with gnuplot: one figure per KV format (history.bf16.png, history.fp8.png,
    history.mxfp4.png), each a PNG; the data file is removed; the runs'
    labels are the x labels of the SVG;
  - --no-plot prints the table only;
  - a KV format with more (case, variant) lines than a figure holds (32):
    its figure left out with a line saying so, the table printed, exit 0;
  - a variant the first run lacks: its geometric mean against its own first
    run (it was "-" in every run);
  - runs of other kernel builds: under a later run whose kernel_knobs differ
    from the first run's, the words that differ ("kernel_knobs (run 1 ->
    this): wg_mx_kb=3 -> wg_mx_kb=2 (20 words the same)"); nothing under
    runs of the same build.
Usage: test_results_history.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
"""
import os
import re
import shutil
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def main():
    tool, mlab = programs()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    os.environ.setdefault("MLAB_PLOTS_DIR", os.path.join(src, "plots"))
    tmp = scratch("history")
    runs = os.path.join(tmp, "runs")
    os.mkdir(runs)

    def write(name, *args):
        path = os.path.join(runs, name)
        subprocess.run([tool, "write", path, *args], check=True)
        return path

    def hist(*args):
        p = subprocess.run([mlab, "history", *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    a = write("a.h5", "--seed", "1", "--label", "rocm-6.4")
    b = write("b.h5", "--seed", "2", "--label", "rocm-7.0", "--scale", "1.10")
    c = write("c.h5", "--seed", "3", "--label", "rocm-6.10")

    rc, out, err = hist(a)
    check(rc == 2 and "at least two runs (got 1)" in err, f"one run: exit {rc}\n{err}")
    one = os.path.join(tmp, "one")
    os.mkdir(one)
    shutil.copy(a, one)
    rc, out, err = hist(one)
    check(rc == 2 and "at least two runs (got 1)" in err, f"folder of one: exit {rc}\n{err}")

    rc, out, err = hist(a, b, c, "--no-plot")
    check(rc == 0, f"three runs: exit {rc}\n{err}")
    head = [l for l in out.splitlines() if l.startswith("case/variant")]
    check(head and head[0].split()[3:] == ["rocm-6.4", "rocm-7.0", "rocm-6.10"],
          f"order given not kept: {head}")
    rows = [l.split() for l in out.splitlines() if re.match(r"^b\d+_kv\d+_s\d+/", l)]
    check(len(rows) == 9 and all(r[2] == "1.000" and 1.05 < float(r[3]) < 1.15 for r in rows),
          f"ratios: want 1.000 then ~1.10\n{out}")
    geo = [l.split() for l in out.split("geometric mean")[1].splitlines()[1:] if l.strip()]
    check(len(geo) == 3 and all(g[1] == "1.000" and 1.07 < float(g[2]) < 1.13 for g in geo),
          f"geomean rows\n{out}")

    rc, out, err = hist(c, b, a, "--by-label", "--no-plot")
    head = [l for l in out.splitlines() if l.startswith("case/variant")]
    check(rc == 0 and head and head[0].split()[3:] == ["rocm-6.4", "rocm-6.10", "rocm-7.0"],
          f"--by-label: exit {rc}: {head}\n{err}")
    nolabel = write("z.h5", "--seed", "4")
    rc, out, err = hist(a, nolabel, "--by-label", "--no-plot")
    check(rc == 2 and "has no label" in err, f"--by-label without label: exit {rc}\n{err}")
    os.remove(nolabel)

    rc, out, err = hist(runs, "--no-plot")
    head = [l for l in out.splitlines() if l.startswith("case/variant")]
    check(rc == 0 and head and head[0].split()[3:] == ["rocm-6.4", "rocm-7.0", "rocm-6.10"],
          f"folder: files by name: {head}\n{err}")

    rc, out, err = hist(a, b, "--variants", "fp8", "--no-plot")
    rows = [l for l in out.splitlines() if re.match(r"^b\d+_kv\d+_s\d+/", l)]
    check(rc == 0 and len(rows) == 3 and all("/fp8 " in l for l in rows), f"--variants fp8\n{out}")
    rc, out, err = hist(a, b, "--cases", "nope", "--no-plot")
    check(rc == 2 and "matches" in err, f"empty filter: exit {rc}\n{err}")

    words = " ".join(f"k{i}=v{i}" for i in range(20))
    kb3 = write("kb3.h5", "--seed", "1", "--knobs", words + " wg_mx_kb=3")
    kb2 = write("kb2.h5", "--seed", "2", "--knobs", words + " wg_mx_kb=2")
    rc, out, err = hist(kb3, kb2, "--no-plot")
    lines = [l.strip() for l in out.splitlines() if "(run 1 -> this)" in l]
    check(rc == 0 and lines == ["kernel_knobs (run 1 -> this): wg_mx_kb=3 -> wg_mx_kb=2 (20 words the same)"],
          f"another build's knobs: {lines}\n{out}{err}")
    rc, out, err = hist(kb3, kb3, "--no-plot")
    check(rc == 0 and "(run 1 -> this)" not in out, f"the same build twice: a build difference listed\n{out}")

    if shutil.which("gnuplot"):
        figs = os.path.join(tmp, "figs")
        rc, out, err = hist("--by-label", a, b, c, "--out", figs, "--format=both")
        check(rc == 0 and "warning" not in err.lower(), f"figures: exit {rc}\n{err}")
        for kv in ["bf16", "fp8", "mxfp4"]:
            png = os.path.join(figs, f"history.{kv}.png")
            check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
                  f"{png} missing or not a PNG")
        svg = os.path.join(figs, "history.fp8.svg")
        text = open(svg).read() if os.path.exists(svg) else ""
        xs = re.findall(r"<text>(rocm-[\d.]+)</text>", text)
        check(xs[:3] == ["rocm-6.4", "rocm-6.10", "rocm-7.0"], f"x labels of the runs: {xs}")
        check(not os.path.exists(os.path.join(figs, "history.csv")), "data file not removed")
        # a format with more lines than a figure can hold: its figure left
        # out, saying so; the table printed and exit 0 (it was exit 2 after
        # the whole table)
        many = [write(f"m{k}.h5", "--seed", str(k), "--case-suffix", f"_m{k}") for k in range(12)]  # 36 bf16 lines
        crowd = os.path.join(tmp, "crowd")
        rc, out, err = hist(*many, "--out", crowd)
        check(rc == 0 and "figure left out" in out and "median in the first run" in out,
              f"a crowded format: exit {rc}, its figure left out\n{out[-500:]}{err}")
    # the geometric mean of a variant the first run lacks: against its own first run
    v2 = write("v2.h5", "--seed", "5", "--variants", "2")
    v3 = write("v3.h5", "--seed", "6", "--variants", "3", "--scale", "1.10")
    v3b = write("v3b.h5", "--seed", "7", "--variants", "3", "--scale", "1.21")
    rc, out, err = hist(v2, v3, v3b, "--no-plot")
    geo = out.split("geometric mean per variant")[-1].splitlines()
    row = next((l.split() for l in geo if l.split()[:1] == ["mxfp4"]), [])
    num = lambda s: float(s) if re.fullmatch(r"[\d.]+", s) else float("nan")  # noqa: E731
    check(rc == 0 and row[1:2] == ["-"] and len(row) == 4 and abs(num(row[2]) - 1) < 0.02
          and abs(num(row[3]) - 1.1) < 0.03,
          f"a variant run 1 lacks: its mean against its own first run (-, 1.0, 1.1): {row}\n{out[-600:]}")
    return finish("test_results_history", tmp)


if __name__ == "__main__":
    sys.exit(main())
