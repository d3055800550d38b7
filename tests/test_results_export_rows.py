#!/usr/bin/env python3
"""test_results_export_rows.py: `mlabench export` and the data file of
`mlabench plot` of a results file of many rows take time in proportion to
its rows, not to their square.

The tidy table (results_tidy.c, which export writes and plot and history give
gnuplot) looked up each row's case and variant index in the lists of names,
its parent's row and its row in the first run by a scan: 40,000 rows took
about 7 s on 2 cores, the 160,000 here 210 s (export and plot alike), where
the indexes take 4 s. Pins, for 80,000 cases x (bf16, fp8: fp8's parent is
bf16):
  - export exits 0 within LIMIT_S (a bound some eight times the time it takes
    here, and a seventh of the old one: a slow machine passes, the quadratic
    table does not), a line per row, every case index once per variant,
    fp8's ratio_to_parent and every timed row's rel_to_first (1) set;
  - plot writes the same table (gnuplot's CSV) within LIMIT_S: plot writes its
    data only where it finds gnuplot, so a stand-in gnuplot first on PATH
    writes each figure as one byte (the drawing of 80,000 cases by the real
    one is gnuplot's time, not plot's); --keep-data keeps the table.
Usage: test_results_export_rows.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import csv
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch, timed

CASES = 80000
ROWS = CASES * 2
LIMIT_S = 30


def table_ok(path, what):
    """The table of ROWS lines: a line per row, each case index once per variant, the derived ratios."""
    if not os.path.exists(path):
        check(False, f"{what}: {path} not written")
        return
    n, cases, parent, first = 0, [set(), set()], 0, 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            n += 1
            v = 0 if row["variant"] == "bf16" else 1
            cases[v].add(row["case_index"])
            parent += v == 1 and row["parent"] == "bf16" and row["ratio_to_parent"] not in ("nan", "")
            first += row["timed"] == "1" and row["rel_to_first"] == "1"
    check(n == ROWS and len(cases[0]) == CASES and len(cases[1]) == CASES and parent == CASES
          and first == ROWS,
          f"{what}: {n} lines (want {ROWS}), {len(cases[0])} and {len(cases[1])} case indexes (want "
          f"{CASES}), {parent} ratios to the parent (want {CASES}), {first} rel_to_first 1 (want {ROWS})")


def main():
    tool, mlab = programs()
    tmp = scratch("export_rows")
    r = os.path.join(tmp, "many.h5")
    subprocess.run([tool, "write", r, "--cases", str(CASES), "--variants", "2", "--samples", "3"],
                   check=True)

    out = os.path.join(tmp, "many.csv")
    took, rc, _, err = timed([mlab, "export", r, "-o", out], LIMIT_S)
    print(f"export of {ROWS} rows: {took:.2f} s (exit {rc})")
    check(rc is not None, f"export of {ROWS} rows: not done in {LIMIT_S} s (killed)")
    check(rc in (0, None), f"export: exit {rc}\n{err[-1000:]}")
    if rc == 0:
        table_ok(out, "export")
        os.unlink(out)

    # plot: its table is written only where gnuplot is found; a stand-in draws nothing
    bin_dir = os.path.join(tmp, "bin")
    os.mkdir(bin_dir)
    stub = os.path.join(bin_dir, "gnuplot")
    with open(stub, "w") as f:
        f.write('#!/bin/sh\n# gnuplot -c SCRIPT DATA OUT FMT: a one-byte figure\nprintf x > "$4"\n')
    os.chmod(stub, 0o755)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    figs = os.path.join(tmp, "fig")
    took, rc, _, err = timed([mlab, "plot", r, "--out", figs, "--keep-data"], LIMIT_S, env=env)
    print(f"plot of {ROWS} rows (a stand-in gnuplot): {took:.2f} s (exit {rc})")
    check(rc is not None, f"plot of {ROWS} rows: not done in {LIMIT_S} s (killed)")
    check(rc in (0, None), f"plot: exit {rc}\n{err[-1000:]}")
    if rc == 0:
        table_ok(os.path.join(figs, "many.csv"), "plot's data")
        check(all(os.path.exists(os.path.join(figs, f"many.{k}.png")) for k in ("latency", "bandwidth")),
              f"plot: the stand-in's figures missing in {figs}: {sorted(os.listdir(figs))}")
    return finish("test_results_export_rows", tmp)


if __name__ == "__main__":
    sys.exit(main())
