#!/usr/bin/env python3
"""goals.py: a results file against a goals file: each goal's measured value,
met or missed, computed from the file (as `mlabench export` reads it), never
typed. The bars a kernel issue sets (papers/goals/) are checked so, and a
closing note quotes this tool's lines.

  goals.py MLABENCH RESULTS.h5 GOALS.txt

A goals file: one goal a line, `#` to the end of a line a comment, blank
lines ignored. A goal is one of

  best  ratio|us VARIANTS [@CASE|@worst] <|<= VALUE
  every ratio|us VARIANTS [@CASE|@worst] <|<= VALUE
  faster VARIANTS than VARIANTS [@CASE]
  not-slower-than OLD.h5

- VARIANTS: comma-separated names or shell patterns (fnmatch: `mxfp4*`)
  over the file's GPU variants (kind gpu); a peer by `peer:NAME`
  (`peer:flashinfer_bf16`, `peer:*`). A pattern no row of the file matches
  is an error (a misspelt name must not pass as "nothing to check").
- ratio: the median over the read limit measured in the same run
  (`read_limit_ratio`); us: the median in microseconds.
- @CASE: one case, `BATCHxKV` (`4x1024`; with q_seq_len Q: `4x1024x2`; a
  ragged batch by its case name, `@ragged_b64`);
  @worst: the variant's worst case; neither: the geomean over the file's
  cases (every case with GPU rows).
- best: the lowest value among VARIANTS meets the bound; every: each of
  them does (the highest is shown). faster: the best (lowest us) of the
  first list below the best of the second.
- not-slower-than: `mlabench compare OLD.h5 RESULTS.h5 --threshold 0.05`
  finds no pair slower (its exit 0); OLD.h5 relative to the goals file's
  folder. Another GPU model, no pair, or other inputs (its exit 7, 8, 9)
  is missed, saying so: not judged is not met.
- A variant with a case not timed (no row, failed validation, no read
  limit) has no value: `every` is then missed, naming it; `best` leaves it
  out, and is missed if none is left.

Output: one line a goal, `met` or `MISSED`, the value and the variant it
comes from, then a summary line. Exit codes: 0 every goal met, 1 a goal
missed, 2 usage or a bad goals file (one line naming FILE:LINE), 3 the
results file has no GPU rows or lacks what a goal names, 4 export failed
(MLABENCH cannot be run, or cannot read RESULTS.h5)."""
import csv
import fnmatch
import io
import math
import os
import re
import subprocess
import sys

from case_label import case_label
from readme_table import num, positive  # the README table's number format; a cell's number above 0, or None

USAGE = "usage: goals.py MLABENCH RESULTS.h5 GOALS.txt"


class BadGoal(Exception):
    pass


class BadResults(Exception):
    pass


def case_key(r):
    """the tables' label without spaces: BATCHxKV[xQ], a ragged case (kv_len -1) by its name (case_label.py)"""
    return case_label(r).replace(" x ", "x").replace(", q_seq_len ", "x")


def parse(line, where):
    """A goal line's tokens -> dict; BadGoal naming where on any fault."""
    t = line.split()
    if t[0] == "faster":
        if len(t) not in (4, 5) or t[2] != "than" or (len(t) == 5 and not t[4].startswith("@")):
            raise BadGoal(f"{where}: want `faster VARIANTS than VARIANTS [@CASE]`")
        case = t[4][1:] if len(t) == 5 else None
        if case == "worst":
            raise BadGoal(f"{where}: faster takes one case or none (the geomean), not @worst")
        return {"kind": "faster", "a": t[1].split(","), "b": t[3].split(","), "case": case}
    if t[0] == "not-slower-than":
        if len(t) != 2:
            raise BadGoal(f"{where}: want `not-slower-than OLD.h5`")
        return {"kind": "compare", "old": t[1]}
    if t[0] not in ("best", "every"):
        raise BadGoal(f"{where}: a goal starts with best, every, faster or not-slower-than, not {t[0]!r}")
    if len(t) not in (5, 6) or t[1] not in ("ratio", "us"):
        raise BadGoal(f"{where}: want `{t[0]} ratio|us VARIANTS [@CASE|@worst] <|<= VALUE`")
    case = None
    if len(t) == 6:
        if not t[3].startswith("@") or len(t[3]) < 2:
            raise BadGoal(f"{where}: {t[3]!r} is not @CASE or @worst")
        case = t[3][1:]
    op, val = t[-2], t[-1]
    if op not in ("<", "<="):
        raise BadGoal(f"{where}: the bound is < or <=, not {op!r}")
    v = positive(val)
    if v is None:
        raise BadGoal(f"{where}: {val!r} is not a number above 0")
    return {"kind": t[0], "metric": t[1], "vars": t[2].split(","), "case": case, "op": op, "value": v}


def load(mlab, h5):
    p = subprocess.run([mlab, "export", h5], capture_output=True, text=True)
    if p.returncode != 0:
        raise OSError(p.stderr.strip() or f"exit {p.returncode}")
    rows = {}
    for r in csv.DictReader(io.StringIO(p.stdout)):
        if r["kind"] in ("gpu", "peer"):
            name = r["variant"] if r["kind"] == "gpu" else "peer:" + r["variant"]
            rows[(case_key(r), name)] = r
    return rows


def matched(pats, names, where):
    out = []
    for p in pats:  # a peer only by peer:NAME, so `*` is every variant of mlabench's own
        hit = [n for n in names if n.startswith("peer:") == p.startswith("peer:") and fnmatch.fnmatchcase(n, p)]
        if not hit:
            raise BadResults(f"{where}: no variant of the file matches {p!r}")
        out += [n for n in hit if n not in out]
    return out


def value(rows, cases, v, metric, case):
    """(value, None) or (None, why) for variant v: a case's, the worst, or the geomean."""
    col = "read_limit_ratio" if metric == "ratio" else "median_us"
    vals = {}
    for c in cases if case in (None, "worst") else [case]:
        x = positive(rows[(c, v)][col]) if (c, v) in rows else None
        if x is None:
            return None, f"{v} not timed at {c}"
        vals[c] = x
    if case is None:
        return math.exp(sum(math.log(x) for x in vals.values()) / len(vals)), None
    if case == "worst":
        c = max(vals, key=vals.get)
        return vals[c], c
    return vals[case], None


def fmt(metric, x):
    """a ratio to 2 decimals; us as the README's table writes them (readme_table.num)"""
    return f"{x:.2f}" if metric == "ratio" else f"{num(x)} us"


def compared(g, mlab, h5, gdir, where):
    """(met, text) for a not-slower-than goal: mlabench compare's verdict"""
    old = os.path.join(gdir, g["old"])
    if not os.path.isfile(old):
        raise BadResults(f"{where}: no results file {old}")
    p = subprocess.run([mlab, "compare", old, h5, "--threshold", "0.05"], capture_output=True, text=True)
    # the summary's pair counts, through "slower" ("summary: 24 pairs: 0 same, 24 faster, 0 slower, ...")
    counts = re.search(r"^summary: (.*? slower)", p.stdout, re.M)
    why = {6: "slower pairs", 7: "another GPU model: not judged", 8: "no pair: not judged",
           9: "other inputs: not judged"}.get(p.returncode)
    if p.returncode == 0 or why:
        return p.returncode == 0, (f"{counts.group(1)}; " if counts else "") + f"{why or 'no pair slower'} (compare at 5%)"
    raise BadResults(f"{where}: mlabench compare {old}: exit {p.returncode} {p.stderr.strip()}")


def check(g, rows, cases, names, where):
    """(met, text) for one goal"""
    if g["case"] not in (None, "worst") and g["case"] not in cases:
        raise BadResults(f"{where}: the file has no case {g['case']} (it has {', '.join(sorted(cases))})")
    scope = "geomean" if g["case"] is None else g["case"]
    if g["kind"] == "faster":
        best = []
        for pats in (g["a"], g["b"]):
            got = [(value(rows, cases, v, "us", g["case"])[0], v) for v in matched(pats, names, where)]
            got = [(x, v) for x, v in got if x is not None]
            best.append(min(got) if got else None)
        if None in best:
            return False, f"faster ({scope}): a side has no variant timed on every case"
        (xa, va), (xb, vb) = best
        return xa < xb, f"{va} {fmt('us', xa)} against {vb} {fmt('us', xb)} ({scope})"
    got, why = [], []
    for v in matched(g["vars"], names, where):
        x, note = value(rows, cases, v, g["metric"], g["case"])
        if x is None:
            why.append(note)
        else:
            got.append((x, v, note))
    ok = (lambda x: x < g["value"]) if g["op"] == "<" else (lambda x: x <= g["value"])
    bound = f"{g['op']} {fmt(g['metric'], g['value'])}"
    if g["kind"] == "every" and why:
        return False, f"{why[0]} ({scope}; bound {bound})"
    if not got:
        return False, f"no variant timed on every case ({scope}; bound {bound})"
    x, v, note = (min if g["kind"] == "best" else max)(got)
    at = f" at {note}" if g["case"] == "worst" else ""
    over = sum(not ok(y) for y, _, _ in got)
    count = f"; {over} of {len(got)} over it" if g["kind"] == "every" else ""
    return ok(x), f"{v} {fmt(g['metric'], x)}{at} ({scope}; bound {bound}{count})"


def main(argv):
    if len(argv) != 3:
        print(USAGE, file=sys.stderr)
        return 2
    mlab, h5, gpath = argv
    try:
        with open(gpath) as f:
            lines = f.read().splitlines()
    except OSError as e:
        print(f"goals.py: {gpath}: cannot read it ({e.strerror or e})", file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        print(f"goals.py: {gpath}: not a text file (byte {e.start} is not UTF-8)", file=sys.stderr)
        return 2
    goals = []
    try:
        for k, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if text:
                goals.append((text, f"{gpath}:{k}", parse(text, f"{gpath}:{k}")))
    except BadGoal as e:
        print(f"goals.py: {e}", file=sys.stderr)
        return 2
    if not goals:
        print(f"goals.py: {gpath}: no goal in it", file=sys.stderr)
        return 2
    try:
        rows = load(mlab, h5)
    except OSError as e:
        print(f"goals.py: mlabench export {h5}: {e.strerror if getattr(e, 'strerror', None) else e}", file=sys.stderr)
        return 4
    cases = sorted({c for c, _ in rows})
    if not cases:
        print(f"goals.py: {h5}: no GPU rows (no cases)", file=sys.stderr)
        return 3
    names = sorted({v for _, v in rows})
    try:  # every goal checked before anything is printed: a bad one prints no verdicts
        gdir = os.path.dirname(os.path.abspath(gpath))
        done = [(text, compared(g, mlab, h5, gdir, where) if g["kind"] == "compare" else
                 check(g, rows, cases, names, where)) for text, where, g in goals]
    except BadResults as e:
        print(f"goals.py: {h5}: {e}", file=sys.stderr)
        return 3
    missed = sum(not ok for _, (ok, _) in done)
    for text, (ok, what) in done:
        print(f"{'met   ' if ok else 'MISSED'}  {text}  ->  {what}")
    print(f"{len(goals) - missed} of {len(goals)} goals met ({h5}, {len(cases)} cases)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
