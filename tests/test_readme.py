"""README.md's tolerance table equals `mlabench tolerances` (the table in
reference/metrics.c), the README's quick start names the test command
that .ci/run runs, and its variant table lists variants/variant_list.h's
variants (whose ids are unique and whose parents are variants). --fix
rewrites the README's tolerance table."""
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

# The README's variant table ("## Variants") lists the variant list's lines
# (variants/variant_list.h: id, name, KV format, parent), no more and no
# fewer; the list's ids are unique and every parent is a listed variant (a
# duplicate id would dispatch to another variant's kernel; a parent that is
# no variant's name gave reports no ratio to it, silently)
import re
lst = open(os.path.join(src, "variants", "variant_list.h")).read()
entries = re.findall(r'X\((\d+),\s*(\w+),\s*MLAB_KV_(\w+),\s*\d+,\s*\d+,\s*"(\w*)"', lst)
names = [e[1] for e in entries]
ids = [int(e[0]) for e in entries]
if not entries:
    print("FAIL: no X(...) line read from variants/variant_list.h")
    fails += 1
dup = sorted({i for i in ids if ids.count(i) > 1}) + sorted({n for n in names if names.count(n) > 1})
orphans = [(n, par) for _, n, _, par in entries if par and par not in names]
if dup or orphans:
    print("FAIL: variant_list.h: ids or names twice %s, parents that are no variant %s" % (dup, orphans))
    fails += 1
else:
    print("ok: variant_list.h: %d variants, ids and names unique, every parent listed" % len(entries))
sec = readme[readme.index("\n## Variants\n"):]
sec = sec[:sec.index("\n\n", sec.index("| id | name |"))]
rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (\w+) \|\s*(\w*)\s*\|", sec, re.M)
want = [(str(i), n, f.lower(), par) for i, n, f, par in entries]
if sorted(rows) != sorted(want):
    print("FAIL: README.md's variant table (## Variants) and variants/variant_list.h differ: "
          "missing from the README %s, not in the list %s" % (sorted(set(want) - set(rows)), sorted(set(rows) - set(want))))
    fails += 1
else:
    print("ok: README's variant table lists the %d variants of variant_list.h (id, name, KV read, parent)" % len(rows))
sys.exit(1 if fails else 0)
