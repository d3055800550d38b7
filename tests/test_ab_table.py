"""harness/tools/ab_table.py: the table of an A/B's two pairs from synthetic
exports (a cell's medians and changes, the geomean row over the cases all
four files have, CPU and untimed rows left out, a variant missing from one
file left out of the columns, --variants choosing and ordering them, "-"
where a chosen variant lacks a case), and its errors (not an export, a row
cut short or not a number, a file mlabench cannot read, the wrong count of
files, an unknown option): exit 2 with one line naming the file; cases one
(batch, kv_len) does not tell apart (q_seq_len 1 and 2, ragged cases) a row
each.

Usage: test_ab_table.py TOOL"""
import math
import os
import sys

from mlabtest import check, finish, run_tool, scratch, write_rows

TOOL = sys.argv[1]
HEADER = "run_index,batch,kv_len,variant,kind,median_us\n"


def write(path, rows):
    return write_rows(path, rows, HEADER)


def tool(*args):
    return run_tool(TOOL, *args)


tmp = scratch("ab_table")
# two cases, variants a and b (b only in three files: left out), a CPU row and
# an untimed GPU row (median 0) left out
def rows(a1, a2, extra=True):
    out = [(4, 1024, "a", "gpu", a1), (4, 1024, "cpu_ref", "cpu", 50.0), (32, 8192, "a", "gpu", a2),
           (32, 8192, "z", "gpu", 0.0)]
    if extra:
        out.append((4, 1024, "b", "gpu", 7.0))
    return out


b1 = write(os.path.join(tmp, "b1.csv"), rows(10.0, 200.0))
n1 = write(os.path.join(tmp, "n1.csv"), rows(9.5, 202.0))
b2 = write(os.path.join(tmp, "b2.csv"), rows(10.2, 201.0))
n2 = write(os.path.join(tmp, "n2.csv"), rows(9.6, 201.0, extra=False))
rc, out, err = tool(b1, n1, b2, n2)
check(rc == 0, "a table: exit 0 (got %d: %s)" % (rc, err))
lines = out.strip().split("\n")
check(lines[0] == "| case | a |", "the columns: the variant all four files have (got %r)" % lines[0])
check("| 4 x 1024 | 10.0 -> 9.50, 10.2 -> 9.60 (-5.0 / -5.9%) |" in lines,
      "the 4 x 1024 cell: both pairs' medians and changes (got %r)" % out)
check("| 32 x 8192 | 200 -> 202, 201 -> 201 (+1.0 / +0.0%) |" in lines, "the 32 x 8192 cell (got %r)" % out)
g = [l for l in lines if l.startswith("| geomean |")]
want = "%.1f -> %.1f" % (math.sqrt(10.0 * 200.0), math.sqrt(9.5 * 202.0))
check(len(g) == 1 and want in g[0], "the geomean row over both cases (want %r in %r)" % (want, g))
check("cpu_ref" not in out and "| z" not in out, "CPU and untimed rows left out (got %r)" % out)

# --variants: b chosen though n2 lacks it: "-" there, and no geomean
rc, out, err = tool("--variants", "b,a", b1, n1, b2, n2)
check(rc == 0 and out.split("\n")[0] == "| case | b | a |", "--variants orders the columns (got %r %r)" % (out, err))
check("| 4 x 1024 | - | 10.0 -> 9.50" in out, "a chosen variant a file lacks: '-' (got %r)" % out)
check("| geomean | - |" in out, "its geomean: '-' (got %r)" % out)

# --per-read-limit: each median over its own run's read limit, so a drift of
# the whole machine (the read limit moving with the medians) cancels; a row
# without a read limit (0 or empty) is left out
def write_rl(path, rows):
    return write_rows(path, rows, "run_index,batch,kv_len,variant,kind,median_us,read_limit_us")


def rl_rows(scale, a2_rl=100.0):
    return [(4, 1024, "a", "gpu", 10.0 * scale, 5.0 * scale), (32, 8192, "a", "gpu", 200.0 * scale, a2_rl * scale),
            (4, 1024, "c", "gpu", 8.0, "")]


r1 = [write_rl(os.path.join(tmp, "rl%d.csv" % k), rl_rows(sc)) for k, sc in enumerate((1.0, 0.95, 1.0, 1.03))]
rc, out, err = tool("--per-read-limit", *r1)
check(rc == 0 and "| 4 x 1024 | 2.00 -> 2.00, 2.00 -> 2.00 (+0.0 / +0.0%) |" in out,
      "--per-read-limit: a run 5%% faster, its read limit too: no change (got %d %r %r)" % (rc, out, err))
check("| 32 x 8192 | 2.00 -> 2.00, 2.00 -> 2.00 (+0.0 / +0.0%) |" in out and out.split("\n")[0] == "| case | a |",
      "--per-read-limit: every case normalized; a variant without a read limit left out (got %r)" % out)
rc, out, err = tool(*r1)
check(rc == 0 and "(-5.0 / +3.0%)" in out, "without it the same files show the drift (got %r)" % out)
rc, out, err = tool("--per-read-limit", b1, n1, b2, n2)
check(rc == 2 and "read_limit_us" in err and "b1.csv" in err,
      "--per-read-limit on exports without read_limit_us: exit 2 naming the file and column (got %d %r)" % (rc, err))

# errors: one line naming the file, exit 2
bad = os.path.join(tmp, "bad.csv")
with open(bad, "w") as f:
    f.write("a,b\n1,2\n")
rc, out, err = tool(bad, n1, b2, n2)
check(rc == 2 and "bad.csv" in err and len(err.strip().split("\n")) == 1,
      "not an export: exit 2, one line naming it (got %d %r)" % (rc, err))
notnum = write(os.path.join(tmp, "notnum.csv"), [(4, 1024, "a", "gpu", "fast")])
rc, out, err = tool(notnum, n1, b2, n2)
check(rc == 2 and "notnum.csv" in err, "a median not a number: exit 2 naming the file (got %d %r)" % (rc, err))
cut = os.path.join(tmp, "cut.csv")  # a row cut short: 3 of its 6 fields
with open(cut, "w") as f:
    f.write(HEADER + "0,4,1024,a,gpu,10.0\n1,32,8192\n")
rc, out, err = tool(cut, n1, b2, n2)
check(rc == 2 and "cut.csv" in err and "row 1" in err and len(err.strip().split("\n")) == 1,
      "a row cut short: exit 2, one line naming the file and row (got %d %r)" % (rc, err[-300:]))
rc, out, err = tool("--mlabench", "/bin/false", os.path.join(tmp, "x.h5"), n1, b2, n2)
check(rc == 2 and "x.h5" in err and "not a results file" in err,
      "a results file mlabench cannot export: exit 2 naming it (got %d %r)" % (rc, err))
rc, out, err = tool(b1, n1, b2)
check(rc == 2 and "four files" in err, "three files: usage, exit 2 (got %d %r)" % (rc, err))
rc, out, err = tool("--nope", b1, n1, b2, n2)
check(rc == 2 and "unknown option" in err, "an unknown option: exit 2 (got %d %r)" % (rc, err))
# cases one (batch, kv_len) does not tell apart: q_seq_len 1 and 2 of a shape, two ragged cases (kv_len -1)
# by their names: a row each (keyed by (batch, kv_len), one of each pair was lost)
QHDR = "run_index,case_name,batch,kv_len,q_seq_len,variant,kind,median_us\n"
def writeq(path, scale):
    with open(path, "w") as f:
        f.write(QHDR)
        for i, (name, b, kv, q, med) in enumerate((("b4_kv1024", 4, 1024, 1, 10.0), ("b4_kv1024_q2", 4, 1024, 2, 14.0),
                                                   ("ragged_a", 64, -1, 1, 20.0), ("ragged_b", 64, -1, 1, 50.0))):
            f.write("%d,%s,%d,%d,%d,a,gpu,%g\n" % (i, name, b, kv, q, med * scale))
    return path
q1, q2, q3, q4 = (writeq(os.path.join(tmp, "q%d.csv" % k), s) for k, s in ((1, 1.0), (2, 0.9), (3, 1.0), (4, 0.9)))
rc, out, err = tool(q1, q2, q3, q4)
labels = [l.split("|")[1].strip() for l in out.strip().split("\n")[2:-1]]
check(rc == 0 and labels == ["4 x 1024", "4 x 1024, q_seq_len 2", "ragged_a", "ragged_b"] and "-10.0 / -10.0%" in out,
      "q_seq_len 1 and 2 of one shape and two ragged cases: a row each (got %d %r %r)" % (rc, labels, err))
sys.exit(finish("test_ab_table", tmp))
