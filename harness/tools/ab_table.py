#!/usr/bin/env python3
"""ab_table.py: the table of an A/B's two pairs (harness/gpu_ab.sh's
ab_base_1, ab_new_1, ab_base_2, ab_new_2; the base -> new tables of the
report READMEs): a row a case (batch x kv_len, ", q_seq_len Q" where an item
has several query rows, a ragged case by its name: case_label.py; by batch,
then kv_len, then q_seq_len), then
the geomean over the cases all four files have for that variant; a column a
variant; each cell the GPU rows' medians in us,

    base_1 -> new_1, base_2 -> new_2 (change_1 / change_2 %)

so a change is read from both pairs at once (believed when both agree).

Usage: ab_table.py [--mlabench PROG] [--variants A,B] [--per-read-limit]
                   BASE_1 NEW_1 BASE_2 NEW_2
  each a results file (.h5, read through `PROG export`; PROG defaults to
  $MLAB_BIN, else build/mlabench) or such an export (.csv)
  --variants  the columns, in this order (default: every timed GPU variant
              of BASE_1 that all four files have, in BASE_1's order)
  --per-read-limit  each median divided by the read limit its own run
              measured for that case and format (the row's read_limit_us):
              a drift of the whole machine between runs, which moves the
              read kernel too, cancels (H200, perf-notes v38: an A/B's
              unchanged rows moved up to -8.5% in one pair while that run's
              read limits were 2-4% lower); rows without a read limit are
              left out
Exit: 0 the table; 2 usage, or an input that is not a results file or export,
or holds a row whose batch, kv_len or median_us is missing (a row cut
short) or not a number (one line naming it).
"""
import csv
import io
import math
import os
import sys

from case_label import case_label, case_order
from export_csv import export_text


def die(msg):
    print("ab_table: " + msg, file=sys.stderr)
    sys.exit(2)


def rows_of(path, prog, per_rl=False):
    """{(case label, variant): median_us} of a file's timed GPU rows (per_rl:
    median_us / read_limit_us, rows without a read limit left out), its
    variants in order, and {case label: sort key}"""
    table = csv.DictReader(io.StringIO(export_text(path, prog, die)))
    need = {"batch", "kv_len", "variant", "kind", "median_us"} | ({"read_limit_us"} if per_rl else set())
    if not table.fieldnames or not need <= set(table.fieldnames):
        die("%s: not a results export (no %s column)" % (path, ", ".join(sorted(need - set(table.fieldnames or [])))))
    out, order, sort = {}, [], {}
    for row in table:
        if row["kind"] == "cpu":
            continue
        try:
            label = case_label(row)
            key = (label, row["variant"])
            sort[label] = case_order(row)
            med = float(row["median_us"])
            rl = float(row["read_limit_us"] or "nan") if per_rl else 1.0
        except (TypeError, ValueError):  # TypeError: a row cut short (csv gives None for its missing fields)
            die("%s: row %s: batch, kv_len, median_us or read_limit_us missing or not a number" %
                (path, row.get("run_index", "?")))
        if not med > 0:  # not timed (validation only, or a failed variant)
            continue
        if not rl > 0:  # per_rl: no read limit measured for the row
            continue
        med /= rl
        out[key] = med
        if row["variant"] not in order:
            order.append(row["variant"])
    return out, order, sort


def f3(x):
    return "%.0f" % x if x >= 100 else ("%.1f" % x if x >= 10 else "%.2f" % x if x >= 1 else "%.3f" % x)


def cell(b1, n1, b2, n2):
    return "%s -> %s, %s -> %s (%+.1f / %+.1f%%)" % (f3(b1), f3(n1), f3(b2), f3(n2), 100 * (n1 / b1 - 1),
                                                     100 * (n2 / b2 - 1))


def main(argv):
    prog = os.environ.get("MLAB_BIN", "build/mlabench")
    want = None
    per_rl = False
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--mlabench", "--variants"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            if a == "--mlabench":
                prog = argv[i + 1]
            else:
                want = [v for v in argv[i + 1].split(",") if v]
            i += 2
        elif a == "--per-read-limit":
            per_rl = True
            i += 1
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            die("unknown option %s (usage: ab_table.py [--mlabench PROG] [--variants A,B] [--per-read-limit] "
                "BASE_1 NEW_1 BASE_2 NEW_2)" % a)
        else:
            files.append(a)
            i += 1
    if len(files) != 4:
        die("four files: BASE_1 NEW_1 BASE_2 NEW_2 (got %d)" % len(files))
    data = [rows_of(f, prog, per_rl) for f in files]
    sets = [d for d, _, _ in data]
    sort = {**data[1][2], **data[0][2]}
    variants = want or [v for v in data[0][1] if all(any(k[1] == v for k in s) for s in sets)]
    if not variants:
        die("no timed GPU variant in all four files")
    cases = sorted({k[0] for k in sets[0]} | {k[0] for k in sets[1]}, key=lambda c: sort[c])
    print("| case | " + " | ".join(variants) + " |")
    print("| --- |" + " --- |" * len(variants))
    logs = {v: [[], [], [], []] for v in variants}
    for case in cases:
        cells = []
        for v in variants:
            m = [s.get((case, v)) for s in sets]
            if None in m:
                cells.append("-")
                continue
            cells.append(cell(*m))
            for j in range(4):
                logs[v][j].append(math.log(m[j]))
        if any(c != "-" for c in cells):
            print("| %s | %s |" % (case, " | ".join(cells)))
    geo = []
    for v in variants:
        ls = logs[v]
        geo.append(cell(*[math.exp(sum(x) / len(x)) for x in ls]) if ls[0] else "-")
    print("| geomean | %s |" % " | ".join(geo))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
