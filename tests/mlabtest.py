"""mlabtest.py: what the Python tests share: the failure list, check() and
say() (a check that prints its verdict), run() and timed() (one killed at a
time limit), where the programs are, a
scratch folder, and the closing report (failures printed, scratch kept; else
removed)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FAILURES = []


def check(cond, what):
    """Record a failure (what) unless cond holds."""
    if not cond:
        FAILURES.append(what)


def say(ok, what, detail="", keep=3000):
    """check(), printing the verdict, and a failure's detail (its last `keep` characters)."""
    print(("ok:   " if ok else "FAIL: ") + what + ("" if ok or not detail else "\n      " + detail[-keep:]))
    check(ok, what)


def run(argv, timeout=300, **kw):
    """A program's run, its output captured as text."""
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, **kw)


def timed(argv, limit, env=None):
    """A program's run killed at limit seconds: (seconds, exit code or None when killed, stdout, stderr)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(list(argv), capture_output=True, text=True, timeout=limit, env=env)
        return time.monotonic() - t0, p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return time.monotonic() - t0, None, "", ""


def programs():
    """(results_tool, mlabench): argv[1] or $MLAB_BUILD/tests/results_tool, and $MLAB_BIN."""
    tool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("MLAB_BUILD", "build"), "tests", "results_tool")
    return tool, os.environ.get("MLAB_BIN", "build/mlabench")


def bin_or_skip(*modules):
    """$MLAB_BIN, or exit 77 (skipped) when it is not a file or a module named cannot be imported."""
    binp = os.environ.get("MLAB_BIN", "")
    if not binp or not os.path.isfile(binp):
        print(f"SKIP: MLAB_BIN ('{binp}') is not a file")
        sys.exit(77)
    for m in modules:
        try:
            __import__(m)
        except ImportError as e:
            print(f"SKIP: {e}")
            sys.exit(77)
    return binp


def readme_or_skip():
    """(the source tree, its README.md's text, $MLAB_BIN), or exit 77 (skipped) when MLAB_BIN is not a program."""
    binp = bin_or_skip()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    return src, open(os.path.join(src, "README.md")).read(), binp


def readme_table(readme, head, path_re, what):
    """The first table (a line starting "| |") after `head` in README.md, within
    its section (to the next "## " heading), and the first path there matching
    path_re (a regex, in backticks): (that path, relative to the source tree;
    the table's lines, stripped), or exit 1 with a FAIL line naming `what`
    when the head, the path or the table is missing."""
    if head not in readme:
        print("FAIL: README.md has no '%s'" % head)
        sys.exit(1)
    sec = readme[readme.index(head):]
    sec = sec[:sec.index("\n## ", 1)] if "\n## " in sec[1:] else sec
    m = re.search(r"`(%s)`" % path_re, sec)
    lines = sec.split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("| |")), None)
    if not m or start is None:
        print("FAIL: %s names no committed %s or has no table" % (what, path_re))
        sys.exit(1)
    table = []
    for l in lines[start:]:
        if not l.startswith("|"):
            break
        table.append(l.strip())
    return m.group(1), table


def readme_h200_table(readme):
    """README.md's H200 table ("Measured on an H200") and the results file it
    names (readme_table)."""
    return readme_table(readme, "## Measured on an H200", r"papers/reports/[^`]+\.h5", "the H200 section")


def scratch(name):
    return tempfile.mkdtemp(prefix="mlab_%s_" % name)


def write_rows(path, rows, header):
    """A synthetic export: the header line, then each row's fields after its index (run_index)."""
    with open(path, "w") as f:
        f.write(header if header.endswith("\n") else header + "\n")
        for i, r in enumerate(rows):
            f.write(",".join(str(x) for x in (i,) + tuple(r)) + "\n")
    return path


def run_tool(tool, *args):
    """A Python tool's run: (exit code, stdout, stderr)."""
    r = run([sys.executable, tool, *args])
    return r.returncode, r.stdout, r.stderr


def finish(name, tmp, detail="", limit=None):
    """Print the failures (the first `limit`) and keep tmp, or clean up; 0/1."""
    if FAILURES:
        for f in FAILURES[:limit]:
            print("FAIL:", f)
        print(f"files kept in {tmp}")
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{name}: ok{detail}")
    return 0
