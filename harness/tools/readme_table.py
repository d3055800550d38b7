#!/usr/bin/env python3
"""readme_table.py: README.md's H200 table ("Measured on an H200") from a
results file, as `mlabench export` reads it: one row a case (largest calls
first: KV rows, then batch; "batch x kv_len", with ", q_seq_len Q" where an
item has several query rows, a ragged case (kv_len -1) by its name), one
column a variant or peer, each
cell the median and, in brackets, its ratio to the read limit measured in
the same run, `*` where NVML flagged a clock slowdown on that row, and a
geomean row over the cases. tests/test_readme_h200.py checks the table
in the README against its file cell by cell; tests/test_readme_table.py
that this prints that table.

  readme_table.py MLABENCH RESULTS.h5 [--columns V1,V2,..] [--errors]

--errors: each case's cell also gives the row's kernel error (relative RMS
against the variant's own reference, 2 significant digits, after the
ratio: `9.15 (1.85, 2.4e-02)`; `-` where the row has none): the table a
kernel issue's closing note asks for (median, ratio, error), from the file.

Numbers: 3 significant digits below 100 us (9.25, 94.3, 93.0), whole
microseconds from 100 (598, 1783); ratios 2 decimals. Columns: the
variants and peers of the current table (COLUMNS) unless --columns, a
peer of COLUMNS left out (and said so on stderr) where the file has no
timed row of it at all (its pack did not travel with that call); a peer's
export name (flashinfer_bf16) is shown as its table name (FlashInfer
bf16). Exit codes: 0 printed, 2 usage, 3 bad input: a column
or a case without its timed row in the file (no row, median or read limit
missing or not above 0), or no GPU rows (no cases) at all, 4 export failed
(MLABENCH cannot be run, or it cannot read RESULTS.h5). Errors are one
line on stderr naming the file and what is missing."""
import argparse
import csv
import io
import math
import subprocess
import sys

from case_label import case_label

COLUMNS = ["bf16", "bf16_wgmma", "fp8", "fp8_exp2rcp", "fp8_wgmma", "fp8_wgmma_qrow", "mxfp4", "mxfp4_e4m3",
           "mxfp4_wgmma", "mxfp4_wgmma_qrow", "mxfp4_qrow_lazy", "flashinfer_bf16", "flashinfer_fp8",
           "flashmla_bf16", "flashmla_fp8"]
SHOWN = {"flashinfer": "FlashInfer", "flashmla": "FlashMLA"}


def shown_name(v):
    head, _, rest = v.partition("_")
    return f"{SHOWN[head]} {rest}" if head in SHOWN and rest else v


def num(v):
    """3 significant digits below 100, whole numbers from 100"""
    return f"{v:.0f}" if v >= 99.95 else f"{v:.1f}" if v >= 9.995 else f"{v:.2f}"


def positive(s):
    """s as a finite number above 0, or None (empty, 0, nan: not timed, or no read limit)"""
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) and v > 0 else None


def main(argv):
    ap = argparse.ArgumentParser(prog="readme_table.py", description="README.md's H200 table from a results file")
    ap.add_argument("mlabench")
    ap.add_argument("results")
    ap.add_argument("--columns", help="variants and peers, export names, comma-separated (default: COLUMNS)")
    ap.add_argument("--errors", action="store_true", help="each cell with its kernel rel RMS after the ratio")
    a = ap.parse_args(argv)  # bad usage: exit 2
    mlab, h5 = a.mlabench, a.results
    cols = a.columns.split(",") if a.columns else COLUMNS
    try:
        p = subprocess.run([mlab, "export", h5], capture_output=True, text=True)
    except OSError as e:
        print(f"readme_table.py: {mlab}: cannot run it ({e.strerror or e})", file=sys.stderr)
        return 4
    if p.returncode != 0:
        print(f"readme_table.py: mlabench export {h5}: {p.stderr.strip()}", file=sys.stderr)
        return 4
    rows, label, order = {}, {}, {}
    for r in csv.DictReader(io.StringIO(p.stdout)):
        if r["kind"] != "cpu":
            name = r["case_name"]
            rows[(name, r["variant"])] = r
            label[name] = case_label(r)  # a ragged case by its name; several query rows an item said
            order[name] = (-int(r["total_kv"]), -int(r["batch"]), name)
    cases = sorted(label, key=lambda n: order[n])
    if not cases:
        print(f"readme_table.py: {h5}: no GPU rows (no cases)", file=sys.stderr)
        return 3
    if not a.columns:  # the default: a peer never timed in this file is left out, not an error
        timed = {v for (_, v), r in rows.items() if positive(r["median_us"])}
        gone = [c for c in cols if c.partition("_")[0] in SHOWN and c not in timed]
        if gone:
            print(f"readme_table.py: {h5}: no timed row of {', '.join(gone)}: left out", file=sys.stderr)
        cols = [c for c in cols if c not in gone]
    out = ["| | " + " | ".join(shown_name(c) for c in cols) + " |", "|" + " --- |" * (len(cols) + 1)]
    per = {c: [] for c in cols}
    for k, name in enumerate(cases):
        cells = []
        for j, c in enumerate(cols):
            r = rows.get((name, c))
            med, ratio = (positive(r["median_us"]), positive(r["read_limit_ratio"])) if r else (None, None)
            if med is None or ratio is None:
                why = "" if r is None else " (median 0 us)" if med is None else " (no read limit)"
                print(f"readme_table.py: {h5}: no timed row {label[name]} / {c}{why}", file=sys.stderr)
                return 3
            per[c].append((med, ratio))
            mark = "*" if r.get("throttled") == "1" else ""
            unit = " us" if k == 0 and j == 0 else ""
            err = ""
            if a.errors:
                e = positive(r.get("kernel_rel_rms"))
                err = f", {e:.1e}" if e is not None else ", -"
            cells.append(f"{num(med)}{mark}{unit} ({ratio:.2f}{err})")
        out.append(f"| {label[name]} | " + " | ".join(cells) + " |")
    gm = []
    for c in cols:
        n = len(per[c])
        gm.append(f"{num(math.exp(sum(math.log(m) for m, _ in per[c]) / n))} "
                  f"({math.exp(sum(math.log(x) for _, x in per[c]) / n):.2f})")
    out.append(f"| geomean of {len(cases)} | " + " | ".join(gm) + " |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
