#!/usr/bin/env python3
"""test_results_history_rows.py: `mlabench history` of runs of many rows
takes time in proportion to their rows, not to their square.

history's table (cmd_history.c) listed each key (case/variant) and variant
by a scan of those listed so far, looked up each key's row in every run by a
scan of the run's rows, and each row's first run by scans of the runs before
it (the geometric means); the count of each KV format's figure lines was a
scan of the keys too. Runs of 16,000, 16,000 and 8,000 cases x (bf16, fp8)
took 45 s on 2 cores, those of 40,000 here 520 s, where the indexes take 3 s. Pins, for
runs of 40,000 cases (1.10 times the first run's medians) and 20,000 (the
first half, 0.90 times):
  - history exits 0 within LIMIT_S (a bound some ten times the time it takes
    here, and a seventeenth of the old one: a slow machine passes, the
    quadratic table does not);
  - its table: a line per (case, variant) in the first run's order (each
    case's bf16, then fp8), read 1.000 1.100 0.900 in the first half and
    1.000 1.100 - after it; the geometric means 1.000 1.100 0.900 per variant;
  - each format's figure left out (40,000 lines, more than a figure holds)
    with its count: no figure is drawn, so no gnuplot is needed.
Usage: test_results_history_rows.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch, timed

CASES = 40000
LIMIT_S = 30


def main():
    tool, mlab = programs()
    tmp = scratch("history_rows")
    runs = []
    for name, cases, scale in (("r-1", CASES, "1"), ("r-2", CASES, "1.10"), ("r-3", CASES // 2, "0.90")):
        runs.append(os.path.join(tmp, name + ".h5"))
        subprocess.run([tool, "write", runs[-1], "--cases", str(cases), "--variants", "2", "--samples", "3",
                        "--scale", scale, "--label", name], check=True)

    took, rc, out, err = timed([mlab, "history", *runs], LIMIT_S)
    print(f"history of 3 runs, {CASES * 5} rows: {took:.2f} s (exit {rc})")
    check(rc is not None, f"history of {CASES * 5} rows: not done in {LIMIT_S} s (killed)")
    check(rc in (0, None), f"history: exit {rc}\n{err[-1000:]}")
    if rc != 0:
        return finish("test_results_history_rows", tmp)

    lines = out.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("case/variant")), None)
    check(head is not None, f"history: no table header\n{out[:2000]}")
    if head is None:
        return finish("test_results_history_rows", tmp)
    table = []
    for l in lines[head + 1:]:
        if not l.strip():
            break
        table.append(l.split())
    want = [["1.000", "1.100", "0.900" if i < CASES // 2 else "-"] for i in range(CASES) for _ in range(2)]
    shape = all(len(t) == 5 for t in table)
    cases = [t[0].rsplit("/", 1) for t in table] if shape else []
    order = shape and len(table) == 2 * CASES and all(
        cases[2 * i][1] == "bf16" and cases[2 * i + 1][1] == "fp8" and cases[2 * i][0] == cases[2 * i + 1][0]
        for i in range(CASES)) and len({c[0] for c in cases}) == CASES
    check(order, f"history: {len(table)} table lines (want {2 * CASES}: each of {CASES} distinct cases' bf16 "
          f"then fp8)\n{chr(10).join(' '.join(t) for t in table[:6])}")
    bad = [i for i, t in enumerate(table) if i < len(want) and t[2:] != want[i]]
    check(shape and not bad, f"history: {len(bad)} lines' ratios not 1.000 1.100 0.900 (or - past the third "
          f"run's {CASES // 2} cases), first {' '.join(table[bad[0]]) if bad else ''}")
    means = {l.split()[0]: l.split()[1:] for l in lines if l.split()[:1] in (["bf16"], ["fp8"]) and
             len(l.split()) == 4}
    check(means == {"bf16": ["1.000", "1.100", "0.900"], "fp8": ["1.000", "1.100", "0.900"]},
          f"history: geometric means {means} (want 1.000 1.100 0.900 for bf16 and fp8)")
    for fmt in ("bf16", "fp8"):
        check(any(l.startswith(f"{fmt}: {CASES} (case, variant) lines, more than 32") and "figure left out" in l
                  for l in lines), f"history: no '{fmt}: {CASES} (case, variant) lines ... figure left out'")
    return finish("test_results_history_rows", tmp)


if __name__ == "__main__":
    sys.exit(main())
