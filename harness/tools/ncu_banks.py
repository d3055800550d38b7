#!/usr/bin/env python3
"""ncu_banks.py: where a kernel's shared-memory bank conflicts are, from Nsight
Compute's per-instruction source counters.

Usage:
  ncu --section SourceCounters -k regex:mla_decode --launch-count 1 -o REP \\
      build/mlabench run --no-time --quiet --variants V CASE...
  ncu -i REP.ncu-rep --page source --csv --print-source sass > V.csv
  python3 harness/tools/ncu_banks.py V.csv [V2.csv ...] [--top N]
  python3 harness/tools/ncu_banks.py --metrics M.csv   (ncu -i REP --page raw --csv
      --metrics ...: the kernel's l1tex__* and smsp__* metrics, one a line)
  python3 harness/tools/ncu_banks.py --opcodes V.csv [--top N]   (the same
      per-instruction CSV: where the kernel's instructions and stall samples go)

(harness/ncu_banks.sh does the three steps for every variant on a GPU
machine.) For each file: the kernel's name, its shared wavefronts (all, ideal,
excess: "L1 Wavefronts Shared", "... Ideal", "... Excessive" summed over its
instructions), then the N instructions (default 12) with the most excess
wavefronts: address, excess, wavefronts, ideal, times ideal, the SASS. A
conflicted access shows as wavefronts a multiple of ideal (2x for 2-way);
perf-notes v23 has what such a table found. Exit 2 on a file that is not
such a CSV (no "Address" / "Source" header or no shared-wavefront columns),
naming the file.

--opcodes: for each file, the warp instructions executed ("Instructions
Executed") and the warp-stall samples ("Warp Stall Sampling (All Samples)")
summed by opcode (the SASS mnemonic without its modifiers or predicate), the
N opcodes with the most of each as a share of the kernel's, and the stall
reasons (the stall_* columns, "Not Issued" ones apart) as shares of their
sum: perf-notes v39 read MXFP4's integer-bound producers from it; where the
CSV has "L1 Wavefronts Shared" (SourceCounters), a fifth line: the shared
wavefronts by opcode (perf-notes v40: MXFP4's wgmma operand reads, LDS,
STS and LDSM, its shared memory the bound). Exit 2 on a file without the
instruction and stall columns, naming it."""
import csv
import sys

COLS = ("L1 Wavefronts Shared Excessive", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal")


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


def source_rows(path, need):
    """(kernel name, header, its rows) of ncu's per-instruction CSV, every
    column of need in the header, or raises ValueError saying what is missing."""
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    kernel = next((r[1] for r in rows if len(r) > 1 and r[0] == "Kernel Name"), "?")
    hi = next((i for i, r in enumerate(rows) if "Address" in r and "Source" in r), None)
    if hi is None:
        raise ValueError("no 'Address' / 'Source' header (ncu -i REP --page source --csv --print-source sass)")
    head = rows[hi]
    missing = [c for c in need if c not in head]
    if missing:
        raise ValueError("no column " + ", ".join(repr(c) for c in missing) + " (profile with --section SourceCounters)")
    return kernel, head, [r for r in rows[hi + 1:] if len(r) == len(head)]


def read(path):
    """(kernel name, [(address, excess, wavefronts, ideal, sass)]) or raises ValueError."""
    kernel, head, body = source_rows(path, COLS)
    ia, isrc = head.index("Address"), head.index("Source")
    ix, iw, ii = (head.index(c) for c in COLS)
    return kernel, [(r[ia], num(r[ix]), num(r[iw]), num(r[ii]), r[isrc].strip()) for r in body]


def metrics(path):
    """[(name, value)] of the first kernel of ncu's raw CSV page (l1tex__*, smsp__*), or raises ValueError."""
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    hi = next((i for i, r in enumerate(rows) if "ID" in r and "Kernel Name" in r), None)
    # the header row, then a units row, then one row a kernel
    if hi is None or len(rows) < hi + 3 or len(rows[hi + 2]) != len(rows[hi]):
        raise ValueError("no 'ID' / 'Kernel Name' header with a kernel's row (ncu -i REP --page raw --csv)")
    return [(k, v) for k, v in sorted(zip(rows[hi], rows[hi + 2])) if k.startswith(("l1tex", "smsp"))]


def opcode(sass):
    """The mnemonic of a SASS line: '@!P0 IMAD.MOV.U32 R1, ...' -> 'IMAD'."""
    w = sass.split()
    if w and w[0].startswith("@"):
        w = w[1:]
    return w[0].split(".")[0] if w else ""


def opcodes(path):
    """(kernel, {op: executed}, {op: samples}, {reason: samples}, {op: shared
    wavefronts} or None where the CSV has no such column) or raises ValueError."""
    need = ("Instructions Executed", "Warp Stall Sampling (All Samples)")
    kernel, head, body = source_rows(path, need)
    isrc, ie, isa = head.index("Source"), head.index(need[0]), head.index(need[1])
    iw = head.index(COLS[1]) if COLS[1] in head else None
    reasons = [(i, c[len("stall_"):]) for i, c in enumerate(head) if c.startswith("stall_") and "Not Issued" not in c]
    ex, sa, st, wf = {}, {}, {}, {}
    for r in body:
        op = opcode(r[isrc].strip())
        if not op:
            continue
        ex[op] = ex.get(op, 0.0) + num(r[ie])
        sa[op] = sa.get(op, 0.0) + num(r[isa])
        if iw is not None:
            wf[op] = wf.get(op, 0.0) + num(r[iw])
        for i, name in reasons:
            st[name] = st.get(name, 0.0) + num(r[i])
    return kernel, ex, sa, st, (wf if iw is not None else None)


def shares(d, top):
    total = sum(d.values())
    best = sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in best if v > 0) if total else "none"


def report_metrics(path, top):
    """--metrics: the kernel's l1tex / smsp metrics, one a line."""
    return [f"  {k} {v}" for k, v in metrics(path)]


def report_opcodes(path, top):
    """--opcodes: instructions, stall samples and stall reasons by opcode, and
    the shared wavefronts by opcode where the CSV has them."""
    kernel, ex, sa, st, wf = opcodes(path)
    out = [f"== {path}: {kernel}",
           f"warp instructions executed {sum(ex.values()):,.0f}: {shares(ex, top)}",
           f"stall samples {sum(sa.values()):,.0f}: {shares(sa, top)}",
           f"stall reasons: {shares(st, top)}"]
    if wf is not None:
        out.append(f"shared wavefronts {sum(wf.values()):,.0f}: {shares(wf, top)}")
    return out


def report_banks(path, top):
    """The default: shared wavefronts against ideal, the instructions with the most excess."""
    kernel, ins = read(path)
    ex, wf, ideal = (sum(x[k] for x in ins) for k in (1, 2, 3))
    out = [f"== {path}: {kernel}",
           f"shared wavefronts {wf:,.0f}, ideal {ideal:,.0f}, excess {ex:,.0f} ({100 * ex / wf if wf else 0:.1f}%)"]
    hot = sorted((x for x in ins if x[1] > 0), key=lambda x: -x[1])[:top]
    if hot:
        out.append(f"{'address':>18} {'excess':>12} {'wavefronts':>12} {'ideal':>12} {'x':>5}  sass")
    out += [f"{a:>18} {x:>12,.0f} {w:>12,.0f} {i:>12,.0f} {w / i if i else 0:>5.1f}  {s}" for a, x, w, i, s in hot]
    return out


def main(argv):
    top, files, modes = 12, [], set()
    it = iter(argv)
    for a in it:
        if a in ("--metrics", "--opcodes"):
            modes.add(a)
        elif a == "--top" or a.startswith("--top="):
            v = a.split("=", 1)[1] if "=" in a else next(it, "")
            if not v.isdigit() or int(v) < 1:
                print(f"ncu_banks: --top: '{v}' is not a count of 1 or more", file=sys.stderr)
                return 2
            top = int(v)
        else:
            files.append(a)
    if len(modes) > 1:
        print("ncu_banks: --metrics and --opcodes read different CSVs: one of them", file=sys.stderr)
        return 2
    if not files:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    report = {"--metrics": report_metrics, "--opcodes": report_opcodes}.get(next(iter(modes), ""), report_banks)
    for path in files:
        try:
            lines = report(path, top)
        except (OSError, ValueError) as e:
            print(f"ncu_banks: {path}: {e}", file=sys.stderr)
            return 2
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
