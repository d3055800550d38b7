#!/usr/bin/env python3
"""split_sweep.py: how far the KV split rule's picks are from the fastest split count, on this GPU.

The split rule (variants/splits.c, README "Split rule") has two constants
fitted on an H200 (MLAB_SPLIT_SETUP, MLAB_SPLIT_SHARE in variants/splits.h).
On another GPU (an MI355X, another driver) this says whether they still pick
well:

  split_sweep.py run --out DIR [--mlabench BIN] [--variants LIST] [--max-time S] [--counts N,..] CASE.h5 ...
      needs a GPU: times the cases with the rule's split count and with every
      power of two 1..64 forced (--counts: only those, e.g. 1,2,4 near the
      rule's picks, for a cheaper sweep) (`mlabench run --splits N`), one results file
      each (DIR/splits_rule.h5, DIR/splits_1.h5, ...) and its export
      (DIR/splits_*.csv); every row is validated before it is timed, as in
      any run. Then prints the report below.
  split_sweep.py report DIR
      from DIR/splits_*.csv (any `mlabench export` of such runs): per (case,
      variant) the fastest forced count and its median, the rule's pick and
      its median, and how much slower the pick is; then one summary line:
      how many picks are within 1% of the fastest and the worst.

  split_sweep.py fit DIR --sms N [--free BYTES] [--merge PCT] [--pair PCT] [--step S] [--pick PROG]
      from DIR's forced runs alone (no rule run needed): for each variant,
      what the rule would pick with each DRAM share bw = 0, S, 2 S, .., 100 (S 5)
      (mlab_variant_impl.dram, variants/splits.h: bw_pct, with free_bytes,
      merge_pct and pair_pct as given, default 0, 100 and 0; pair_pct for a
      decode whose runs paired heads, bf16_wgmma) and how far that is
      from the fastest forced count: a table of picks within 1% (and the
      worst) by bw, then a line a variant naming the bw values with the most
      picks within 1% (then the smallest mean excess). Each row's shape is
      its export's total_q and kv_len (uniform batches: rows without them, or
      whose total_kv is not batch x kv_len, a ragged batch's, are left out),
      kv_format (whose tile's bytes the rule takes) and blocks_per_sm (1
      where absent); N is the GPU's SM count.
      PROG is the rule itself, mlab_split_pick (built beside mlabench;
      default: $MLAB_SPLIT_PICK, else build/mlab_split_pick), so the rule is
      written once. On another GPU: run, then fit, then set the share.

Rows are a file's timed GPU rows: CPU references, untimed rows (median_us
not above 0) and rows cut short (a needed field empty) are left out.

Exit codes: 0 done; 2 usage; 3 no usable rows (a file without the columns
case_name, variant, splits, median_us, no rule run, or no timed rows left);
4 a command failed. Errors are one line on stderr.
"""
import csv
import glob
import os
import subprocess
import sys

SPLITS = [1, 2, 4, 8, 16, 32, 64]


def timed(us):
    """a median_us field as a number above 0 (a finite time), else None (empty, 0: not timed)"""
    try:
        v = float(us)
    except (TypeError, ValueError):
        return None
    return v if 0 < v < float("inf") else None


def timed_rows(path, need=("case_name", "variant", "splits", "median_us")):
    """A file's timed GPU rows (CSV dicts); ValueError naming a missing column.
    Rows without one of the needed fields (a row cut short) or untimed
    (median_us not above 0) are left out."""
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        miss = sorted(set(need) - set(rows.fieldnames or []))
        if miss:
            raise ValueError(f"{path}: not an mlabench export (no column {', '.join(miss)})")
        for r in rows:
            if any(not r.get(k) for k in need) or timed(r["median_us"]) is None:
                continue
            if not r["variant"].startswith("cpu_ref"):
                yield r


def forced_files(d):
    """DIR's forced runs' exports (splits_N.csv, not the rule's)."""
    return [p for p in sorted(glob.glob(os.path.join(d, "splits_*.csv"))) if os.path.basename(p) != "splits_rule.csv"]


def load(path):
    """{(case, variant): (splits, median_us)} of a file's timed GPU rows."""
    out = {}
    for r in timed_rows(path):
        try:
            out[(r["case_name"], r["variant"])] = (int(float(r["splits"])), float(r["median_us"]))
        except (TypeError, ValueError):
            continue
    return out


def report(d):
    rule_path = os.path.join(d, "splits_rule.csv")
    if not os.path.exists(rule_path):
        print(f"split_sweep: {rule_path}: missing (the run with the rule's split counts)", file=sys.stderr)
        return 3
    try:
        rule = load(rule_path)
        forced = {}
        for p in forced_files(d):
            for key, (s, us) in load(p).items():
                forced.setdefault(key, {})[s] = min(us, forced.get(key, {}).get(s, us))
    except (OSError, ValueError) as e:
        print(f"split_sweep: {e}", file=sys.stderr)
        return 3
    keys = sorted(k for k in rule if k in forced)
    if not keys:
        print(f"split_sweep: {d}: no (case, variant) timed both in the rule run and a forced run", file=sys.stderr)
        return 3
    print("| case | variant | fastest forced | rule's pick | pick / fastest |")
    print("| --- | --- | --- | --- | --- |")
    within, worst, worst_key = 0, 0.0, None
    for k in keys:
        best = min(forced[k], key=forced[k].get)
        s, us = rule[k]
        off = us / forced[k][best] - 1.0
        within += off <= 0.01
        if off > worst:
            worst, worst_key = off, k
        print(f"| {k[0]} | {k[1]} | {best} splits, {forced[k][best]:.4g} us | {s} splits, {us:.4g} us | {off:+.1%} |")
    tail = f", worst {worst:+.1%} ({worst_key[1]} on {worst_key[0]})" if worst_key else ""
    print(f"split_sweep: {within} of {len(keys)} picks within 1% of the fastest forced count{tail}")
    return 0


def options(mode, args, names):
    """args' "--NAME VALUE" pairs for the names given ({name: value}) and the
    other arguments, in order; None (after a one-line message) for an
    unknown option or one without its value."""
    opts, rest, i = {}, [], 0
    while i < len(args):
        a = args[i]
        if a in names and i + 1 < len(args):
            opts[a] = args[i + 1]
            i += 2
        elif a.startswith("-"):
            print(f"split_sweep: {mode}: unknown option {a}", file=sys.stderr)
            return None
        else:
            rest.append(a)
            i += 1
    return opts, rest


def run(args):
    parsed = options("run", args, ("--out", "--mlabench", "--variants", "--max-time", "--counts"))
    if parsed is None:
        return 2
    o, cases = parsed
    out, variants, max_time = o.get("--out"), o.get("--variants"), o.get("--max-time", "0.1")
    binary = o.get("--mlabench", os.environ.get("MLAB_BIN", "build/mlabench"))
    counts = SPLITS
    if "--counts" in o:
        try:
            counts = sorted({int(x) for x in o["--counts"].split(",")})
        except ValueError:
            counts = []
        if not counts or any(c not in SPLITS for c in counts):
            print(f"split_sweep: --counts {o['--counts']}: powers of two in 1..64, comma-separated", file=sys.stderr)
            return 2
    if not out or not cases:
        print("split_sweep: run needs --out DIR and at least one case file", file=sys.stderr)
        return 2
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        print(f"split_sweep: {out}: cannot create the folder ({e.strerror})", file=sys.stderr)
        return 4
    for s in ["rule"] + counts:
        res = os.path.join(out, f"splits_{s}.h5")
        cmd = [binary, "run", "--require-gpu", "--quiet", "--max-time", max_time, "-o", res]
        if s != "rule":
            cmd += ["--splits", str(s)]
        if variants:
            cmd += ["--variants", variants]
        try:
            rc = subprocess.run(cmd + cases, stdout=subprocess.DEVNULL).returncode
        except OSError as e:
            print(f"split_sweep: {binary}: cannot run it ({e.strerror})", file=sys.stderr)
            return 4
        if rc != 0:
            print(f"split_sweep: {' '.join(cmd)} ...: exit {rc}", file=sys.stderr)
            return 4
        if subprocess.run([binary, "export", res, "-o", res[:-3] + ".csv"]).returncode != 0:
            print(f"split_sweep: exporting {res} failed", file=sys.stderr)
            return 4
        print(f"split_sweep: splits {s} done", file=sys.stderr)
    return report(out)


def fit(args):
    parsed = options("fit", args, ("--sms", "--pick", "--free", "--merge", "--pair", "--step"))
    if parsed is None:
        return 2
    o, dirs = parsed
    if len(dirs) > 1:
        print(f"split_sweep: fit: unexpected argument {dirs[1]}", file=sys.stderr)
        return 2
    d, sms = (dirs or [None])[0], o.get("--sms")
    pick = o.get("--pick", os.environ.get("MLAB_SPLIT_PICK", "build/mlab_split_pick"))
    opt = {"--free": "0", "--merge": "100", "--pair": "0", "--step": "5"}
    opt.update({k: v for k, v in o.items() if k in opt})
    if d is None or sms is None or not sms.isdigit() or int(sms) < 1:
        print("split_sweep: fit needs DIR and --sms N (the GPU's SM count, N >= 1)", file=sys.stderr)
        return 2
    if not all(opt[o].isdigit() for o in ("--free", "--merge", "--pair", "--step")) or not 1 <= int(opt["--step"]) <= 50:
        print("split_sweep: fit: --free BYTES, --merge PCT and --pair PCT take whole numbers >= 0, --step 1..50",
              file=sys.stderr)
        return 2
    free, merge, pair, step = int(opt["--free"]), int(opt["--merge"]), int(opt["--pair"]), int(opt["--step"])
    # (variant, case) -> shape (W, T, bps) and {forced splits: median us}
    shape, times = {}, {}
    for p in forced_files(d):
        try:
            for r in timed_rows(p, ("case_name", "variant", "splits", "median_us", "total_q", "kv_len", "kv_format")):
                try:
                    W, L, fmt = int(float(r["total_q"])), int(float(r["kv_len"])), r["kv_format"]
                    bps = int(float(r.get("blocks_per_sm") or 1))
                    s_, us = int(float(r["splits"])), float(r["median_us"])
                    # a ragged batch (rows of different lengths) runs the split plan, not this rule
                    ragged = (r.get("batch") and r.get("total_kv")
                              and int(float(r["total_kv"])) != int(float(r["batch"])) * L)
                except (TypeError, ValueError):
                    continue
                if W < 1 or L < 1 or bps < 1 or ragged or fmt not in ("bf16", "fp8", "mxfp4"):
                    continue
                k = (r["variant"], r["case_name"])
                shape[k] = (W, (L + 63) // 64, bps, fmt)
                t = times.setdefault(k, {})
                t[s_] = min(us, t.get(s_, us))
        except (OSError, ValueError) as e:
            print(f"split_sweep: {e}", file=sys.stderr)
            return 3
    keys = sorted(times)
    if not keys:
        print(f"split_sweep: {d}: no timed rows (median_us > 0) with total_q, kv_len and kv_format in the forced runs "
              "(splits_N.csv)", file=sys.stderr)
        return 3
    bws = list(range(0, 101, step))
    query = "".join(f"{shape[k][0]} {shape[k][1]} {sms} {shape[k][2]} {bw} {free} {merge} {pair} {shape[k][3]}\n"
                    for bw in bws for k in keys)
    try:
        r = subprocess.run([pick], input=query, capture_output=True, text=True)
    except OSError as e:
        print(f"split_sweep: {pick}: cannot run it ({e.strerror}; build it: cmake --build build "
              "--target mlab_split_pick)", file=sys.stderr)
        return 4
    picks = r.stdout.split()
    if r.returncode != 0 or len(picks) != len(bws) * len(keys):
        print(f"split_sweep: {pick}: exit {r.returncode}, {len(picks)} picks for {len(bws) * len(keys)} shapes "
              f"({r.stderr.strip()})", file=sys.stderr)
        return 4
    variants = sorted({k[0] for k in keys})
    # per (variant, bw): picks within 1% of the fastest forced, worst and mean excess
    score = {}
    for j, bw in enumerate(bws):
        for v in variants:
            offs = []
            for n, k in enumerate(keys):
                if k[0] != v:
                    continue
                s_, t = int(picks[j * len(keys) + n]), times[k]
                best = min(t.values())
                # a pick never forced (a count past 64, or a file missing) counts as unknown: left out
                if s_ in t:
                    offs.append(t[s_] / best - 1.0)
            score[(v, bw)] = (sum(o <= 0.01 for o in offs), len(offs), max(offs, default=0.0),
                              sum(offs) / len(offs) if offs else 0.0)
    print("| bw % | " + " | ".join(variants) + " |")
    print("| --- | " + " | ".join("---" for _ in variants) + " |")
    for bw in bws:
        cells = []
        for v in variants:
            w, n, worst, _ = score[(v, bw)]
            cells.append(f"{w} of {n} ({worst:+.1%})")
        print(f"| {bw} | " + " | ".join(cells) + " |")
    for v in variants:
        top = max(score[(v, bw)][0] for bw in bws)
        best_mean = min(score[(v, bw)][3] for bw in bws if score[(v, bw)][0] == top)
        good = [bw for bw in bws if score[(v, bw)][0] == top and score[(v, bw)][3] <= best_mean + 1e-12]
        w, n, worst, _ = score[(v, good[0])]
        z = score[(v, 0)]
        runs = []  # the good values as runs of consecutive grid steps: "0, 60..100"
        for bw in good:
            if runs and bw - runs[-1][1] == step:
                runs[-1][1] = bw
            else:
                runs.append([bw, bw])
        span = ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs)
        print(f"split_sweep fit: {v}: bw {span} % (free {free} bytes, merge {merge} %, pair {pair} %) picks within 1% of the "
              f"fastest for {w} of {n} (worst {worst:+.1%}, mean {score[(v, good[0])][3]:+.1%}); without (0): {z[0]} "
              f"of {z[1]} (worst {z[2]:+.1%})")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "report" and len(argv) == 2:
        return report(argv[1])
    if len(argv) >= 1 and argv[0] == "run":
        return run(argv[1:])
    if len(argv) >= 1 and argv[0] == "fit":
        return fit(argv[1:])
    print("usage:\n" + "\n".join(l for l in __doc__.splitlines() if l.startswith("  split_sweep.py")),
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
