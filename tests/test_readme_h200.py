"""README.md's H200 table ("Measured on an H200") is the committed results
file it names, cell by cell: each median and its ratio to the read limit
as printed (to the digits shown), the NVML clock-slowdown mark `*` exactly
where that row carries the flag, and the geomean row recomputed from the 8
cases. Read through `mlabench export` (the results file's own rows), so an
edited number, a stale table after a new suite, or a results file that no
longer holds a cell fails here. --self-test: the checker catches a changed
median, ratio, mark and geomean in a copy of the table (it can fail)."""
import csv
import io
import math
import os
import re
import subprocess
import sys

from mlabtest import readme_h200_table, readme_or_skip

src, readme, binp = readme_or_skip()
h5, lines = readme_h200_table(readme)
table = [[c.strip() for c in l.strip("|").split("|")] for l in lines]
names = table[0][1:]
variant = {n: n.lower().replace(" ", "_") for n in names}  # "FlashInfer bf16" -> flashinfer_bf16

out = subprocess.run([binp, "export", os.path.join(src, h5)], capture_output=True, text=True)
if out.returncode != 0:
    print("FAIL: mlabench export %s: %s" % (h5, out.stderr.strip()))
    sys.exit(1)
rows = {}
for r in csv.DictReader(io.StringIO(out.stdout)):
    rows[(r["batch"], r["kv_len"], r["variant"])] = r


def shown(text):
    """a printed number and the half-unit of its last digit"""
    d = len(text.split(".")[1]) if "." in text else 0
    return float(text), 0.5 * 10 ** -d


cell_re = re.compile(r"^([0-9.]+)(\*?)(?: us)?(\*?) \(([0-9.]+)\)$")


def check(table):
    fails = []
    per = {n: [] for n in names}
    for row in table[2:]:
        label, cells = row[0], row[1:]
        if label.startswith("geomean"):
            continue
        cm = re.match(r"^(\d+) x (\d+)$", label)
        if not cm:
            fails.append("row '%s': not 'B x L'" % label)
            continue
        for n, c in zip(names, cells):
            r = rows.get((cm.group(1), cm.group(2), variant[n]))
            km = cell_re.match(c)
            if r is None or not km:
                fails.append("%s, %s: %s" % (label, n, "no such row in " + h5 if r is None else "cell '%s' unreadable" % c))
                continue
            med, ratio = float(r["median_us"]), float(r["read_limit_ratio"])
            per[n].append((med, ratio))
            v, tol = shown(km.group(1))
            if abs(med - v) > tol + 1e-9:
                fails.append("%s, %s: README %s us, the file %.4g" % (label, n, km.group(1), med))
            v, tol = shown(km.group(4))
            if abs(ratio - v) > tol + 1e-9:
                fails.append("%s, %s: README ratio %s, the file %.4f" % (label, n, km.group(4), ratio))
            mark = bool(km.group(2) or km.group(3))
            if mark != (r.get("throttled") == "1"):
                fails.append("%s, %s: README %s the slowdown mark, the file's row %s flagged" %
                             (label, n, "has" if mark else "lacks", "is" if r.get("throttled") == "1" else "is not"))
    g = [row for row in table[2:] if row[0].startswith("geomean")]
    if not g:
        fails.append("no geomean row")
    else:
        for n, c in zip(names, g[0][1:]):
            km = cell_re.match(c)
            if not km or len(per[n]) != 8:
                fails.append("geomean, %s: cell '%s' or its 8 cases missing" % (n, c))
                continue
            gm = math.exp(sum(math.log(a) for a, _ in per[n]) / 8)
            gr = math.exp(sum(math.log(b) for _, b in per[n]) / 8)
            for text, val in ((km.group(1), gm), (km.group(4), gr)):
                v, tol = shown(text)
                if abs(val - v) > tol + 1e-9:
                    fails.append("geomean, %s: README %s, recomputed %.4g" % (n, text, val))
    return fails


if "--self-test" in sys.argv:
    ok = True
    for what, edit in (("median", lambda c: re.sub(r"^([0-9]+)", lambda x: str(int(x.group(1)) + 3), c)),
                       ("ratio", lambda c: re.sub(r"\(([0-9.]+)\)", "(9.99)", c)),
                       ("mark", lambda c: c.replace("*", "") if "*" in c else re.sub(r"^([0-9.]+)", r"\1*", c))):
        t = [list(r) for r in table]
        t[2][1] = edit(t[2][1])
        caught = check(t)
        print(("ok" if caught else "FAIL") + ": a changed %s in the first cell is caught (%s)" % (what, caught[:1]))
        ok &= bool(caught)
    t = [list(r) for r in table]
    t[-1][1] = re.sub(r"^([0-9.]+)", "1.0", t[-1][1])
    caught = check(t)
    print(("ok" if caught else "FAIL") + ": a changed geomean is caught (%s)" % caught[:1])
    ok &= bool(caught)
    sys.exit(0 if ok else 1)

fails = check(table)
for f in fails:
    print("FAIL: README H200 table: " + f)
if not fails:
    print("ok: README's H200 table is %s, %d cells and the geomeans" % (h5, (len(table) - 3) * len(names)))
sys.exit(1 if fails else 0)
