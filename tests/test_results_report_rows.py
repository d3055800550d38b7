#!/usr/bin/env python3
"""test_results_report_rows.py: `mlabench report` of a results file of many
rows takes time in proportion to its rows, not to their square.

The report asked of every row and every headline cell a scan of all rows (the
row of a case and variant, the best peer of a case and KV format for the ‡
mark, the rows of a case), and reading the file gave each row without a read
limit another scan: 80,000 rows took about 2 minutes on 2 cores (20,000: 9 s),
where the index takes about a second. Pins: the report of 16,000 cases x (three
GPU variants, a peer whose samples spread over a quarter of their median, a CPU
row), without read limits, exits 0 within LIMIT_S (a bound some twenty times
the time it takes here, and a fourth of the old one: a slow machine passes, the
quadratic report does not) with a table per case and the ‡ marks and note.
Usage: test_results_report_rows.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch, timed

CASES = 16000
LIMIT_S = 30


def main():
    tool, mlab = programs()
    tmp = scratch("report_rows")
    r = os.path.join(tmp, "many.h5")
    # --noise 0.3: a row's IQR about 0.4 of its median, the peer's too (host-bound: ‡ in most cases)
    subprocess.run([tool, "write", r, "--cases", str(CASES), "--peer", "1", "--cpu-rows", "1",
                    "--noise", "0.3", "--samples", "12"], check=True)
    md = os.path.join(tmp, "report.md")
    took, rc, _, err = timed([mlab, "report", r, "-o", md], LIMIT_S)
    check(rc is not None, f"report of {CASES * 5} rows: not done in {LIMIT_S} s (killed)")
    print(f"report of {CASES * 5} rows: {took:.2f} s (exit {rc})")
    if rc is not None:
        text = open(md).read() if os.path.exists(md) else ""
        head = text.split("## Environment")[0]
        best = head.split("Ratio to the best peer")[-1] if "Ratio to the best peer" in head else ""
        check(rc == 0 and f"{CASES * 5} rows" in text and text.count("\n### ") == CASES
              and "host-bound" in head and best.count("‡") > CASES // 2,
              f"report: exit {rc}, {text.count(chr(10) + '### ')} case tables (want {CASES}), "
              f"{best.count('‡')} ‡ marks\n{err[-1000:]}")
    return finish("test_results_report_rows", tmp)


if __name__ == "__main__":
    sys.exit(main())
