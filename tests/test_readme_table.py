"""harness/tools/readme_table.py prints README.md's H200 table from the
results file the README names, line for line (so the next suite's table is
generated, not typed: test_readme_h200 then checks it cell by cell); a
column the file lacks exits 3 naming it, and bad usage exits 2."""
import os
import subprocess
import sys

from mlabtest import readme_h200_table, readme_or_skip

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
p = subprocess.run([sys.executable, tool, binp, h5, "--columns", "bf16,nosuch"], capture_output=True, text=True)
if p.returncode != 3 or "nosuch" not in p.stderr:
    fails.append(f"a column the file lacks: exit {p.returncode}, {p.stderr.strip()!r}")
p = subprocess.run([sys.executable, tool, binp], capture_output=True, text=True)
if p.returncode != 2:
    fails.append(f"usage: exit {p.returncode}")
for f in fails:
    print("FAIL: " + f)
if not fails:
    print(f"ok: readme_table.py prints the README's H200 table ({len(table)} lines) from {os.path.relpath(h5, src)}")
sys.exit(1 if fails else 0)
