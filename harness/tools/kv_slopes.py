#!/usr/bin/env python3
"""kv_slopes.py: a decode's fixed cost and its cost a KV tile, from a sweep
of KV lengths: for each (label, variant, batch, q_seq_len) of uniform cases
at two or more KV lengths, the least-squares line through the medians (us)
against the 64-row tiles an item reads (kv_len / 64):

    median_us = fixed + slope x tiles

`fixed` is what the call costs before and after its KV stream (launches,
the first tile's landing, the epilogue, the merge), `slope` what each tile
of every item adds, and slope's GB/s the rate that stream reaches (batch x 64
rows x the format's row bytes a tile step: 1152 bf16, 576 fp8, 306 mxfp4),
to hold against the run's read bandwidth (`read_bw_gbs`). Two decodes, or
one decode two ways (a knob on and off: the label tells), compare by both
numbers: perf-notes v74 read the MTP unit's losses at 64 items from them (a
fixed cost 2-4 us above a block a row's, its stream at the DRAM's rate).
With two lengths the line passes through both points (residual 0), and a
rate that differs between them lands in `fixed`: read it against the read
limit's row of the same lengths. A line holds only where the grid keeps its
shape along the sweep (the same
splits and blocks at each length): the table's `grid/splits` column says
whether it did ("-" for a peer, which reports none), and a row whose grid
moved is marked `*`. Where the files hold each case's read limit (the
`read_limit_us` mlabench run measures: a streaming read of the call's
fewest bytes in its format, timed as the calls are), its line is a row too,
"read limit (FMT)": the fixed cost and the rate of a pure stream, beside
which a decode's excess is its own.

Usage: kv_slopes.py [--mlabench PROG] [--variants A,B] [--kv-lens N,M,...] FILE...
  each FILE a results file (.h5, read through `PROG export`; PROG defaults
  to $MLAB_BIN, else build/mlabench) or such an export (.csv); several runs
  of one label (a pair's two) are averaged per case
  --variants  only these, in this order (default: every timed GPU variant
              and read limit, in the order first seen; a read limit by its
              row's name, e.g. "read limit (fp8)")
  --kv-lens   only these KV lengths (a sweep whose grid moves at its
              longest: the line through the lengths of one grid)
Output: a Markdown table, a row a (label, variant, batch, q_seq_len):
  label | variant | batch | q_seq_len | kv lengths | fixed us | us a tile |
  GB/s | worst residual % | grid/splits
Exit: 0 the table; 2 usage, an input that is not a results file or export,
a row whose numbers are missing or not numbers, or no group with two KV
lengths (one line naming it).
"""
import csv
import io
import os
import sys

from export_csv import export_text

ROW_BYTES = {"bf16": 1152, "fp8": 576, "mxfp4": 306}
NEED = {"label", "batch", "kv_len", "q_seq_len", "total_kv", "variant", "kind", "kv_format", "median_us"}


def die(msg):
    print("kv_slopes: " + msg, file=sys.stderr)
    sys.exit(2)


def read(path, prog, acc, order, kv_only=None):
    """Adds the file's timed GPU rows of uniform cases to acc:
    {(label, variant, batch, q): {kv_len: ([medians], {grid/splits}, fmt)}},
    and each case's read limit (once a case and format) as the variant
    "read limit (FMT)"; order: the variants as first seen"""
    table = csv.DictReader(io.StringIO(export_text(path, prog, die)))
    if not table.fieldnames or not NEED <= set(table.fieldnames):
        die("%s: not a results export (no %s column)" % (path, ", ".join(sorted(NEED - set(table.fieldnames or [])))))

    def add(variant, kv, fmt, value, grid):
        meds, grids, _ = acc.setdefault((row["label"], variant, b, q), {}).setdefault(kv, ([], set(), fmt))
        meds.append(value)
        grids.add(grid)
        if variant not in order:
            order.append(variant)

    seen = set()  # this file's (case, format) whose read limit is in
    for row in table:
        if row["kind"] == "cpu":
            continue
        try:
            b, kv, q, tkv = int(row["batch"]), int(row["kv_len"]), int(row["q_seq_len"] or 1), int(row["total_kv"])
            med = float(row["median_us"])
            rl = float(row.get("read_limit_us") or "nan")
        except (TypeError, ValueError):  # TypeError: a row cut short
            die("%s: row %s: batch, kv_len, q_seq_len, total_kv, median_us or read_limit_us missing or not a number" %
                (path, row.get("run_index", "?")))
        if not med > 0 or kv <= 0 or tkv != b * kv:  # untimed; ragged (kv_len -1, or lengths that differ)
            continue
        if kv_only and kv not in kv_only:
            continue
        fmt = row["kv_format"]
        if fmt not in ROW_BYTES:
            die("%s: row %s: KV format %r unknown" % (path, row.get("run_index", "?"), fmt))
        g = row.get("grid") or "0"
        add(row["variant"], kv, fmt, med, "%s/%s" % (g, row.get("splits") or "?") if g != "0" else "-")  # "-": a peer
        case = (row.get("case_index") or row.get("case_name") or (b, kv, q), fmt)
        if rl > 0 and case not in seen:  # the run's read limit of the case and format: a pure stream's line
            seen.add(case)
            add("read limit (%s)" % fmt, kv, fmt, rl, "-")


def fit(xs, ys):
    """Least-squares (intercept, slope) of ys on xs (two or more distinct xs)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - slope * mx, slope


def main(argv):
    prog = os.environ.get("MLAB_BIN", "build/mlabench")
    want, kv_only, files, i = None, None, [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("--mlabench", "--variants", "--kv-lens"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            if a == "--mlabench":
                prog = argv[i + 1]
            elif a == "--variants":
                want = [v for v in argv[i + 1].split(",") if v]
            else:
                try:
                    kv_only = {int(k) for k in argv[i + 1].split(",") if k}
                except ValueError:
                    die("--kv-lens %s: KV lengths, N,M,... (whole numbers)" % argv[i + 1])
            i += 2
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            die("unknown option %s (usage: kv_slopes.py [--mlabench PROG] [--variants A,B] [--kv-lens N,M] FILE...)" % a)
        else:
            files.append(a)
            i += 1
    if not files:
        die("no file (usage: kv_slopes.py [--mlabench PROG] [--variants A,B] [--kv-lens N,M] FILE...)")
    acc, order = {}, []
    for f in files:
        read(f, prog, acc, order, kv_only)
    variants = want or order
    labels = []
    for k in acc:
        if k[0] not in labels:
            labels.append(k[0])
    out = []
    for lab in labels:
        for v in variants:
            for key in sorted(k for k in acc if k[0] == lab and k[1] == v):
                pts = acc[key]
                if len(pts) < 2:
                    continue
                kvs = sorted(pts)
                xs = [kv / 64.0 for kv in kvs]
                ys = [sum(pts[kv][0]) / len(pts[kv][0]) for kv in kvs]
                c, s = fit(xs, ys)
                worst = max(abs(y - (c + s * x)) / y for x, y in zip(xs, ys))
                b = key[2]
                gbs = b * 64 * ROW_BYTES[pts[kvs[0]][2]] / (s * 1e3) if s > 0 else float("nan")
                grids = [sorted(pts[kv][1]) for kv in kvs]
                moved = len({tuple(g) for g in grids}) > 1
                out.append("| %s | %s | %d | %d | %s | %.1f | %.3f | %.0f | %.1f | %s%s |" %
                           (lab, v, b, key[3], ", ".join(str(kv) for kv in kvs), c, s, gbs, 100 * worst,
                            " ".join("/".join(g) for g in grids), " *" if moved else ""))
    if not out:
        die("no (label, variant, batch, q_seq_len) with two KV lengths or more in %s" % ", ".join(files))
    print("| label | variant | batch | q_seq_len | kv lengths | fixed us | us a tile | GB/s | worst residual % "
          "| grid/splits |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
