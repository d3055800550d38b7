"""mlabtest.py: what the Python tests of results files share: the failure
list and check(), where the programs are, a scratch folder, and the closing
report (failures printed, scratch kept; else removed)."""
import os
import shutil
import sys
import tempfile

FAILURES = []


def check(cond, what):
    """Record a failure (what) unless cond holds."""
    if not cond:
        FAILURES.append(what)


def programs():
    """(results_tool, mlabench): argv[1] or $MLAB_BUILD/tests/results_tool, and $MLAB_BIN."""
    tool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("MLAB_BUILD", "build"), "tests", "results_tool")
    return tool, os.environ.get("MLAB_BIN", "build/mlabench")


def scratch(name):
    return tempfile.mkdtemp(prefix="mlab_%s_" % name)


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
