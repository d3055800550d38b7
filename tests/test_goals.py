"""harness/tools/goals.py checks a results file against a goals file
(papers/goals/: issue 9's bars, where mlabench is headed). On the file of
README.md's H200 table: each ratio goal's value is that table's geomean
(or case cell) for the variant it names, found by another path (the README
table, itself checked against the file cell by cell by test_readme_h200);
issue9.txt's verdicts are those the bars get from that table; a bound just
above a measured value is met and one just below missed (exit 0 / 1, so
the check can fail both ways); `*` is mlabench's own variants and never a
peer, `peer:*` the peers; `every` names the slowest and how many are over;
`faster` compares the best of each side; `not-slower-than` is
mlabench compare's verdict (met against 0f09366's file, missed the other
way round, not judged and so missed against another GPU model). Bad goals files exit 2 with one
line naming FILE:LINE, a pattern or case the results file lacks exits 3,
a program that cannot run exits 4, and nothing is printed on stdout then."""
import csv
import glob
import io
import os
import subprocess
import sys

from mlabtest import finish, readme_h200_table, readme_or_skip, say, scratch

src, readme, binp = readme_or_skip()
tool = os.path.join(src, "harness", "tools", "goals.py")
rel, table = readme_h200_table(readme)
h5 = os.path.join(src, rel)
tmp = scratch("goals")

# the README table: column -> (geomean us, geomean ratio), and (case label, column) -> (us, ratio)
cols = [c.strip() for c in table[0].strip("|").split("|")][1:]
cell = {}
for line in table[2:]:
    parts = [c.strip() for c in line.strip("|").split("|")]
    for c, v in zip(cols, parts[1:]):
        us, _, ratio = v.replace("*", "").replace(" us", "").partition(" (")
        cell[(parts[0], c)] = (float(us), float(ratio.rstrip(")")))
geo = {c: cell[(next(l for l, _ in cell if l.startswith("geomean")), c)] for c in cols}


def goals(text, name="g.txt", prog=binp, results=h5):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([sys.executable, tool, prog, results, path], capture_output=True, text=True, timeout=120)
    return p, path


def value_of(line):
    """the measured value a verdict line gives: the number after the variant's name"""
    what = line.split("->", 1)[1].split()
    return float(what[1])


# issue 9's bars on that file, and each value against the README's geomean row
p = subprocess.run([sys.executable, tool, binp, h5, os.path.join(src, "papers", "goals", "issue9.txt")],
                   capture_output=True, text=True, timeout=120)  # in place: its compare's file is relative to it
lines = p.stdout.strip().split("\n")
say(p.returncode == 1 and len(lines) == 9, f"issue9.txt on the README's file: exit 1 (some bar missed), 8 goals and a summary (exit {p.returncode})",
    p.stdout + p.stderr)
# the best of the table's columns of each family (the table shows every fast rung; the legacy ones it leaves out are slower)
want = {}
for goal, pre in (("best ratio bf16,bf16_t32,bf16_wgmma <= 1.20", "bf16"), ("best ratio fp8* <= 1.35", "fp8"),
                  ("best ratio mxfp4* <= 1.60", "mxfp4")):
    var = min((c for c in cols if c.startswith(pre)), key=lambda c: geo[c][1])
    want[goal] = (var, geo[var][1])
for goal, (var, ratio) in want.items():
    got = [l for l in lines if f"  {goal}  ->" in l]
    ok = len(got) == 1 and got[0].split("->")[1].split()[0] == var and abs(value_of(got[0]) - ratio) < 0.006
    verdict = ratio <= float(goal.split()[-1])
    ok = ok and got[0].startswith("met" if verdict else "MISSED")
    say(ok, f"{goal}: {var} {ratio:.2f} as the README's geomean row, {'met' if verdict else 'missed'}", "\n".join(got))

# a bound just above a measured value is met, just below missed (exit 0 / 1)
r = geo["bf16_wgmma"][1]
p, _ = goals(f"best ratio bf16_wgmma <= {r + 0.01:.2f}\n")
say(p.returncode == 0 and p.stdout.startswith("met"), f"bf16_wgmma <= {r + 0.01:.2f}: met, exit 0 (exit {p.returncode})", p.stdout + p.stderr)
p, _ = goals(f"best ratio bf16_wgmma <= {r - 0.01:.2f}\n")
say(p.returncode == 1 and p.stdout.startswith("MISSED"), f"bf16_wgmma <= {r - 0.01:.2f}: missed, exit 1 (exit {p.returncode})", p.stdout + p.stderr)

# a case's value: 4 x 1024's median of fp8_wgmma_qrow, < and <= at the value itself
us = cell[("4 x 1024", "fp8_wgmma_qrow")][0]
p, _ = goals(f"best us fp8_wgmma_qrow @4x1024 < {us * 1.01:.3f}\nbest us fp8_wgmma_qrow @4x1024 < {us * 0.99:.3f}\n")
ls = p.stdout.split("\n")
say(p.returncode == 1 and ls[0].startswith("met") and ls[1].startswith("MISSED") and abs(value_of(ls[0]) - us) <= 0.006 * us,
    f"fp8_wgmma_qrow at 4 x 1024: {us} us (the README's cell), under 1.01x of it, not under 0.99x", p.stdout + p.stderr)

# < and <= at the exact value (the file's own median, by export): missed and met
ex = subprocess.run([binp, "export", h5], capture_output=True, text=True)
exact = next(float(r["median_us"]) for r in csv.DictReader(io.StringIO(ex.stdout))
             if r["variant"] == "fp8_wgmma_qrow" and r["batch"] == "4" and r["kv_len"] == "1024")
p, _ = goals(f"best us fp8_wgmma_qrow @4x1024 < {exact!r}\nbest us fp8_wgmma_qrow @4x1024 <= {exact!r}\n")
ls = p.stdout.split("\n")
say(p.returncode == 1 and ls[0].startswith("MISSED") and ls[1].startswith("met"),
    f"at its own value {exact!r} us: < missed, <= met", p.stdout + p.stderr)

# `*`: every variant of mlabench's own, no peer; `every` gives the slowest and the count over
own = [c for c in cols if not c.startswith(("FlashInfer", "FlashMLA"))]
slow = max(own, key=lambda c: cell[("4 x 1024", c)][0])
p, _ = goals("every us * @4x1024 < 1000\nevery us * @4x1024 < 8\n")
ls = p.stdout.split("\n")
over8 = sum(cell[("4 x 1024", c)][0] >= 8 for c in own)
say(p.returncode == 1 and ls[0].startswith("met") and ls[1].startswith("MISSED") and "peer:" not in p.stdout,
    "every us * at 4 x 1024: under 1000 met, under 8 missed, no peer in `*`", p.stdout + p.stderr)
# the README's table shows most of the variants, not all (it leaves out legacy rungs): the slowest shown is a lower bound
say(value_of(ls[1]) >= cell[("4 x 1024", slow)][0] and int(ls[1].split("; ")[-1].split()[0]) >= over8,
    f"every: the slowest at least {slow}'s {cell[('4 x 1024', slow)][0]} us, at least {over8} over 8 us", ls[1])
p, _ = goals("every us peer:* @4x1024 < 1000\n")
say(p.returncode == 0 and "peer:" in p.stdout, "peer:* names the peers", p.stdout + p.stderr)

# faster: the best of each side
a, b = geo["bf16_wgmma"][0], geo["FlashInfer bf16"][0]
p, _ = goals("faster bf16_wgmma than peer:flashinfer_bf16\nfaster peer:flashinfer_bf16 than bf16_wgmma\n")
ls = p.stdout.split("\n")
say(p.returncode == 1 and ls[0].startswith("met" if a < b else "MISSED") and ls[1].startswith("MISSED" if a < b else "met"),
    f"faster by the geomean: bf16_wgmma {a} us against FlashInfer bf16 {b} us, both ways", p.stdout + p.stderr)

# @worst: the variant's worst case, named
worst = max((cell[(l, "bf16_wgmma")][1], l) for l, _ in cell if not l.startswith("geomean") and (l, "bf16_wgmma") in cell)
p, _ = goals("best ratio bf16_wgmma @worst <= 9\n")
say(p.returncode == 0 and abs(value_of(p.stdout) - worst[0]) < 0.006 and worst[1].replace(" ", "") in p.stdout,
    f"@worst: bf16_wgmma's {worst[0]} at {worst[1]}", p.stdout + p.stderr)

# not-slower-than: mlabench compare's verdict, OLD relative to the goals file's folder
old0 = os.path.join(src, "papers", "reports", "h200-2026-12-01", "h200_ab_0f09366.h5")
gdir = os.path.join(tmp, "g")
os.makedirs(gdir, exist_ok=True)
rel0 = os.path.relpath(old0, gdir)
p, _ = goals(f"not-slower-than {rel0}\n", os.path.join("g", "cmp.txt"))
say(p.returncode == 0 and p.stdout.startswith("met") and "0 slower" in p.stdout,
    f"not-slower-than 0f09366's file (relative to the goals file): met, none slower (exit {p.returncode})", p.stdout + p.stderr)
p, _ = goals(f"not-slower-than {os.path.relpath(h5, gdir)}\n", os.path.join("g", "cmp.txt"), results=old0)
say(p.returncode == 1 and p.stdout.startswith("MISSED") and "slower pairs" in p.stdout,
    f"0f09366's file not slower than the README's: missed, slower pairs (exit {p.returncode})", p.stdout + p.stderr)
h100 = sorted(glob.glob(os.path.join(src, "papers", "reports", "h100-*", "*suite*.h5")))
if h100:
    p, _ = goals(f"not-slower-than {rel0}\n", os.path.join("g", "cmp.txt"), results=h100[-1])
    say(p.returncode == 1 and "another GPU model: not judged" in p.stdout,
        f"against an H100 file ({os.path.basename(h100[-1])}): missed, not judged (exit {p.returncode})", p.stdout + p.stderr)
p, _ = goals("not-slower-than no-such.h5\n", os.path.join("g", "cmp.txt"))
say(p.returncode == 3 and "no-such.h5" in p.stderr and not p.stdout, f"not-slower-than a file not there: exit 3 (exit {p.returncode})",
    p.stdout + p.stderr)

# ragged cases (kv_len -1) by their names, never one key for two: the H100 oos folder's three
rag = os.path.join(src, "papers", "reports", "h100-2026-12-07e", "h100_oos_ragged.h5")
if os.path.exists(rag):
    p, _ = goals("every us bf16_wgmma @ragged_b64 < 1000\nevery us bf16_wgmma @ragged_mix64 < 1000\n", results=rag)
    ls = p.stdout.split("\n")
    say(p.returncode == 0 and len(ls) >= 2 and value_of(ls[0]) != value_of(ls[1]) and "3 cases" in p.stdout,
        "three ragged cases, each by its name, two values apart", p.stdout + p.stderr)

# bad goals files: exit 2, one line naming FILE:LINE, nothing on stdout
for text, n in (("best ratio bf16_wgmma <= x\n", 1), ("# c\n\nbest ratio bf16_wgmma => 1.2\n", 3),
                ("worst ratio bf16 <= 1\n", 1), ("best speed bf16 <= 1\n", 1), ("best ratio bf16 4x1024 <= 1\n", 1),
                ("faster bf16 fp8\n", 1), ("faster bf16 than fp8 @worst\n", 1), ("best ratio bf16 <= -1\n", 1),
                ("best ratio bf16 <= nan\n", 1), ("best ratio bf16 @ <= 1\n", 1), ("not-slower-than\n", 1),
                ("not-slower-than a.h5 b.h5\n", 1)):
    p, path = goals(text, "bad.txt")
    errs = [l for l in p.stderr.split("\n") if l.strip()]
    say(p.returncode == 2 and len(errs) == 1 and f"{path}:{n}:" in errs[0] and not p.stdout,
        f"{text.strip().splitlines()[-1]!r}: exit 2, one line naming bad.txt:{n} (exit {p.returncode})", p.stdout + p.stderr)
for text, what in (("", "no goal"), ("# only a comment\n", "no goal")):
    p, path = goals(text, "empty.txt")
    say(p.returncode == 2 and what in p.stderr and not p.stdout, f"a goals file with {what}: exit 2", p.stderr)
p = subprocess.run([sys.executable, tool, binp, h5], capture_output=True, text=True)
say(p.returncode == 2 and not p.stdout, f"two arguments: exit 2 (exit {p.returncode})", p.stderr)
binary = os.path.join(tmp, "binary.txt")
with open(binary, "wb") as f:
    f.write(b"best ratio bf16 <= 1\n\xff\xfe\n")
for path, what in ((binary, "a goals file not UTF-8"), (tmp, "a folder for a goals file")):
    p = subprocess.run([sys.executable, tool, binp, h5, path], capture_output=True, text=True)
    say(p.returncode == 2 and not p.stdout and len(p.stderr.strip().split("\n")) == 1 and "Traceback" not in p.stderr,
        f"{what}: exit 2, one line (exit {p.returncode})", p.stderr)
p = subprocess.run([sys.executable, tool, binp, h5, os.path.join(tmp, "no-such-goals.txt")], capture_output=True, text=True)
say(p.returncode == 2 and "no-such-goals.txt" in p.stderr and not p.stdout, "a goals file that is not there: exit 2 naming it", p.stderr)

# what the results file lacks: exit 3, nothing on stdout (not half the verdicts)
for text, what in (("best ratio bf16_wgmma <= 2\nbest ratio bf16_wgmmaa <= 2\n", "bf16_wgmmaa"),
                   ("best ratio bf16_wgmma @3x1000 <= 2\n", "3x1000"), ("best ratio peer:nope* <= 2\n", "peer:nope*")):
    p, _ = goals(text)
    say(p.returncode == 3 and what in p.stderr and not p.stdout and len(p.stderr.strip().split("\n")) == 1,
        f"{what}: not in the file: exit 3, one line naming it, no verdicts (exit {p.returncode})", p.stdout + p.stderr)
# a program that cannot run, a file that is not a results file
p, _ = goals("best ratio bf16 <= 2\n", prog=os.path.join(tmp, "no-such-mlabench"))
say(p.returncode == 4 and not p.stdout, f"mlabench that is not there: exit 4 (exit {p.returncode})", p.stderr)
junk = os.path.join(tmp, "junk.h5")
with open(junk, "w") as f:
    f.write("not hdf5\n")
p, _ = goals("best ratio bf16 <= 2\n", results=junk)
say(p.returncode == 4 and "junk.h5" in p.stderr and not p.stdout and "Traceback" not in p.stderr,
    f"a results file that is not one: exit 4 naming it (exit {p.returncode})", p.stderr)

sys.exit(finish("goals", tmp))
