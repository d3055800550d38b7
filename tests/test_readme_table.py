"""harness/tools/readme_table.py prints README.md's H200 table from the
results file the README names, line for line (so the next suite's table is
generated, not typed: test_readme_h200 then checks it cell by cell); a
column the file lacks exits 3 naming it, and bad usage exits 2. Bad input
is one line on stderr, never a traceback: a file without GPU rows, and rows
untimed (median 0) or without a read limit (0), exit 3 naming the file; a
program that cannot be run exits 4 naming it. --errors gives each case's
cell the row's kernel rel RMS from the same file (checked against
`mlabench export`, cell by cell), the geomean row unchanged. Cases beyond
the uniform suite (papers/reports/h100-2026-12-06j, merged): one row a
case, a ragged batch by its name, several query rows an item said. And the
README's out-of-sample table ("Beyond the competition's 8") is its print
of the `oos` folder that paragraph names first (its three files merged),
line for line, with the table's own columns."""
import csv
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile

from mlabtest import readme_h200_table, readme_or_skip, readme_table

src, readme, binp = readme_or_skip()
tool = os.path.join(src, "harness", "tools", "readme_table.py")
rel, table = readme_h200_table(readme)
h5 = os.path.join(src, rel)

fails = []
p = subprocess.run([sys.executable, tool, binp, h5], capture_output=True, text=True)
got = [l.strip() for l in p.stdout.strip().split("\n")]
if p.returncode != 0 or got != table:
    diff = [(a, b) for a, b in zip(table, got) if a != b][:2]
    fails.append(f"readme_table.py prints another table (exit {p.returncode}; {len(got)} lines, "
                 f"README {len(table)}; first differences {diff}) {p.stderr.strip()}")
p = subprocess.run([sys.executable, tool, binp, h5, "--errors"], capture_output=True, text=True)
werr = [l.strip() for l in p.stdout.strip().split("\n")]
ex = subprocess.run([binp, "export", h5], capture_output=True, text=True)
rms = {(r["batch"], r["kv_len"], r["variant"]): r["kernel_rel_rms"]
       for r in csv.DictReader(io.StringIO(ex.stdout)) if r["kind"] != "cpu"}
cols = [c.strip() for c in table[0].strip("|").split("|")][1:]
checked = 0
if p.returncode != 0 or len(werr) != len(table) or werr[-1] != table[-1] or werr[0] != table[0]:
    fails.append(f"--errors: exit {p.returncode}, {len(werr)} lines (want {len(table)}, the same head and geomean row)")
else:
    for plain, line in zip(table[2:-1], werr[2:-1]):
        label = plain.strip("|").split("|")[0].strip()
        b, _, l = label.partition(" x ")
        for c, pc, ec in zip(cols, plain.strip("|").split("|")[1:], line.strip("|").split("|")[1:]):
            e = float(rms[(b, l, c.lower().replace(" ", "_"))] or "nan")
            want = pc.strip()[:-1] + (f", {e:.1e})" if e > 0 else ", -)")
            checked += 1
            if ec.strip() != want:
                fails.append(f"--errors: {label} / {c}: '{ec.strip()}', want '{want}'")
if checked == 0 and not fails:
    fails.append("--errors: no cell checked")
# cases the README's suite lacks (a committed out-of-sample run): ragged batches (kv_len -1) by their names,
# several query rows an item said, one row a case (two 64-item ragged cases once shared a row)
oos = os.path.join(src, "papers", "reports", "h100-2026-12-06j")
mtmp = tempfile.mkdtemp(prefix="mlab_readme_oos_")
merged = os.path.join(mtmp, "all.h5")
mk = subprocess.run([binp, "merge"] + [os.path.join(oos, f"h100_oos_{k}.h5") for k in ("ragged", "uniform", "mtp")]
                    + ["-o", merged], capture_output=True, text=True)
p = subprocess.run([sys.executable, tool, binp, merged, "--columns", "bf16_wgmma"], capture_output=True, text=True)
labels = [l.strip("|").split("|")[0].strip() for l in p.stdout.strip().split("\n")[2:-1]]
want = {"128 x 16384", "128 x 2048", "64 x 4096, q_seq_len 2", "16 x 16384", "ragged_mix64", "ragged_b64",
        "16 x 2048", "8 x 4096, q_seq_len 2", "ragged_1long32", "1 x 16384", "1 x 2048"}
if mk.returncode != 0 or p.returncode != 0 or sorted(labels) != sorted(want) or labels[0] != "128 x 16384":
    fails.append(f"ragged and MTP cases: exit {mk.returncode}/{p.returncode}, rows {labels} "
                 f"(want one a case, the largest first: {sorted(want)}) {mk.stderr.strip()} {p.stderr.strip()}")
# the README's out-of-sample table: the oos folder its paragraph names first, merged, printed with its columns
odir, otab = readme_table(readme, "**Beyond the competition's 8**", r"papers/reports/[\w.-]+", "the out-of-sample paragraph")
files = [glob.glob(os.path.join(src, odir, f"*_oos_{k}.h5")) for k in ("ragged", "uniform", "mtp")]
ocols = [c.strip().lower().replace(" ", "_") for c in otab[0].strip("|").split("|")][1:]
if any(len(f) != 1 for f in files):
    fails.append(f"{odir}: want one *_oos_ragged.h5, *_oos_uniform.h5 and *_oos_mtp.h5, found {files}")
else:
    mk = subprocess.run([binp, "merge"] + [f[0] for f in files] + ["-o", merged], capture_output=True, text=True)
    p = subprocess.run([sys.executable, tool, binp, merged, "--columns", ",".join(ocols)],
                       capture_output=True, text=True)
    got = [l.strip() for l in p.stdout.strip().split("\n")]
    if mk.returncode != 0 or p.returncode != 0 or got != otab:
        diff = [(a, b) for a, b in zip(otab, got) if a != b][:2]
        fails.append(f"the README's out-of-sample table is not readme_table.py's print of {odir} "
                     f"(exit {mk.returncode}/{p.returncode}; first differences {diff}) {p.stderr.strip()}")
    else:
        print(f"ok: the README's out-of-sample table ({len(otab)} lines) is {odir}'s, merged")
shutil.rmtree(mtmp, ignore_errors=True)
p = subprocess.run([sys.executable, tool, binp, h5, "--columns", "bf16,nosuch"], capture_output=True, text=True)
if p.returncode != 3 or "nosuch" not in p.stderr:
    fails.append(f"a column the file lacks: exit {p.returncode}, {p.stderr.strip()!r}")
p = subprocess.run([sys.executable, tool, binp], capture_output=True, text=True)
if p.returncode != 2:
    fails.append(f"usage: exit {p.returncode}")
tmp = tempfile.mkdtemp(prefix="mlab_readme_table_")
rtool = os.path.join(os.environ.get("MLAB_BUILD", "build"), "tests", "results_tool")
made = {"cpu.h5": lambda f: [binp, "run", "--cpu-only", "--default", "--quiet", "-o", f],  # no GPU rows
        "nolimit.h5": lambda f: [rtool, "write", f, "--seed", "1"],  # read limit 0
        "untimed.h5": lambda f: [rtool, "write", f, "--seed", "1", "--samples", "0"]}  # median 0
bad = [("cpu.h5", [], 3, "no GPU rows"), ("nolimit.h5", ["--columns", "bf16,fp8"], 3, "no read limit"),
       ("untimed.h5", ["--columns", "bf16,fp8"], 3, "median 0")]
for name, argv in made.items():
    mk = subprocess.run(argv(os.path.join(tmp, name)), capture_output=True, text=True)
    if mk.returncode != 0:
        fails.append(f"making {name}: exit {mk.returncode} {mk.stderr.strip()}")
        bad = [x for x in bad if x[0] != name]
for name, extra, code, what in bad:
    f = os.path.join(tmp, name)
    p = subprocess.run([sys.executable, tool, binp, f] + extra, capture_output=True, text=True)
    err = p.stderr.strip()
    if p.returncode != code or "\n" in err or f not in err or what not in err:
        fails.append(f"{name} {' '.join(extra)}: exit {p.returncode} (want {code}, one line naming the file "
                     f"and '{what}'), {err[-300:]!r}")
gone = os.path.join(tmp, "no-such-mlabench")
p = subprocess.run([sys.executable, tool, gone, h5], capture_output=True, text=True)
if p.returncode != 4 or "\n" in p.stderr.strip() or gone not in p.stderr:
    fails.append(f"a program that cannot be run: exit {p.returncode} (want 4, one line naming it), "
                 f"{p.stderr.strip()[-300:]!r}")
shutil.rmtree(tmp, ignore_errors=True)
for f in fails:
    print("FAIL: " + f)
if not fails:
    print(f"ok: readme_table.py prints the README's H200 table ({len(table)} lines) from {os.path.relpath(h5, src)}")
sys.exit(1 if fails else 0)
