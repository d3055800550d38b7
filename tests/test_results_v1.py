#!/usr/bin/env python3
"""test_results_v1.py: version-1 results files stay readable.

Pins, on the committed v1 file papers/reports/h200-2026-11-30c/h200_suite_v6.h5
(96 rows, 6660 samples, format_version 1, no v2 fields):
  - it reads back (results_tool check: "ok 96 6660");
  - `export` gives each row a kind from its variant_id: the 48 cpu_ref_* rows
    (negative ids) "cpu", the 48 variant rows "gpu"; v2 numbers read as 0;
  - `compare` of the file with itself pairs 48 GPU rows, all "same", CPU rows
    apart, exit 0; `report` works on it.
Usage: test_results_v1.py PATH/TO/results_tool   (MLAB_BIN = mlabench, MLAB_SRC = source)
"""
import csv
import io
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def main():
    tool, mlab = programs()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    v1 = os.path.join(src, "papers", "reports", "h200-2026-11-30c", "h200_suite_v6.h5")
    tmp = scratch("v1")
    p = subprocess.run([tool, "check", v1], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.strip() == "ok 96 6660", f"check: {p.stdout}{p.stderr}")
    p = subprocess.run([mlab, "export", v1], capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    check(p.returncode == 0 and len(rows) == 96, f"export: exit {p.returncode}, {len(rows)} rows")
    cpu = [r for r in rows if r["kind"] == "cpu"]
    gpu = [r for r in rows if r["kind"] == "gpu"]
    check(len(cpu) == 48 and all(r["variant"].startswith("cpu_ref_") and int(r["variant_id"]) < 0
                                 for r in cpu), "cpu rows: kind from variant_id < 0")
    check(len(gpu) == 48 and all(int(r["variant_id"]) >= 0 for r in gpu), "gpu rows")
    check(all(float(r["read_limit_us"]) == 0 and r["gpu_uuid"] == "" for r in rows),
          "v2 fields of a v1 file read as 0 / ''")
    p = subprocess.run([mlab, "compare", v1, v1], capture_output=True, text=True)
    check(p.returncode == 0 and "48 pairs: 48 same" in p.stdout and "48 CPU rows" in p.stdout,
          f"compare v1 v1: exit {p.returncode}\n{p.stdout}{p.stderr}")
    p = subprocess.run([mlab, "report", v1, "-o", os.path.join(tmp, "r.md")],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"report v1: exit {p.returncode}\n{p.stderr}")
    return finish("test_results_v1", tmp)


if __name__ == "__main__":
    sys.exit(main())
