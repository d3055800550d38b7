"""README.md's tolerance table equals `mlabench tolerances` (the table in
reference/metrics.c), and the README's quick start names the test command
that .ci/run runs. --fix rewrites the README's copy."""
import os
import subprocess
import sys

from mlabtest import readme_or_skip

src, readme, binp = readme_or_skip()
readme_path = os.path.join(src, "README.md")
table = subprocess.run([binp, "tolerances"], capture_output=True, text=True, check=True).stdout
begin, end = "<!-- tolerances:begin -->\n", "<!-- tolerances:end -->"
a, b = readme.index(begin) + len(begin), readme.index(end)
if "--fix" in sys.argv:
    open(readme_path, "w").write(readme[:a] + table + readme[b:])
    print("README.md tolerance table rewritten")
    sys.exit(0)
fails = 0
if readme[a:b] != table:
    print("FAIL: README.md's tolerance table differs from `mlabench tolerances`"
          " (run tests/test_readme.py --fix)")
    fails += 1
else:
    print("ok: README tolerance table is current (%d rows)" % (table.count("\n") - 2))
ci = open(os.path.join(src, ".ci", "run")).read()
cmd = "ctest --test-dir build --output-on-failure -LE slow"
if cmd not in readme or cmd not in ci:
    print("FAIL: the README's test command and .ci/run's differ (expected %r in both)" % cmd)
    fails += 1
else:
    print("ok: .ci/run runs the README's test command")
sys.exit(1 if fails else 0)
