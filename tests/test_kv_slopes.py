"""harness/tools/kv_slopes.py: the fixed cost and the cost a KV tile from
synthetic exports on known lines (the intercept and slope recovered, two
runs of a label averaged, the slope's GB/s by the format's row bytes, a
grid that moves along the sweep marked, CPU, untimed and ragged rows left
out, a group of one KV length left out, --variants choosing and ordering,
--kv-lens keeping the lengths named, the read limit's own line, a peer's
grid "-"),
and its errors (no file, not an export, a row cut short or not a number, an
unknown format or option, nothing to fit): exit 2 with one line.

Usage: test_kv_slopes.py TOOL"""
import functools
import os
import sys

from mlabtest import check, finish, run_tool, scratch, write_rows

TOOL = sys.argv[1]
HEADER = "run_index,label,batch,kv_len,q_seq_len,total_kv,variant,kind,kv_format,median_us,grid,splits\n"
write = functools.partial(write_rows, header=HEADER)  # write(path, rows): a synthetic export
tool = functools.partial(run_tool, TOOL)  # tool(*args): (exit code, stdout, stderr)


def line(label, v, b, fmt, fixed, per_tile, kvs=(512, 1024, 2048), grid=128, splits=1, q=2, jitter=0.0):
    """rows on median = fixed + per_tile x kv/64 (jitter: + on the first length, - on the last)"""
    out = []
    for k, kv in enumerate(kvs):
        j = jitter if k == 0 else -jitter if k == len(kvs) - 1 else 0.0
        out.append((label, b, kv, q, b * kv, v, "gpu", fmt, fixed + per_tile * kv / 64 + j, grid, splits))
    return out


tmp = scratch("kv_slopes")
rows = (line("off", "a", 64, "fp8", 10.0, 1.0) + line("on", "a", 64, "fp8", 14.0, 0.75) +
        line("off", "b", 128, "bf16", 15.0, 3.5, grid=256) +
        [("off", 64, 512, 2, 64 * 512, "cpu_ref", "cpu", "bf16", 99.0, 0, 0),  # a CPU row
         ("off", 64, 4096, 2, 64 * 4096, "a", "gpu", "fp8", 0.0, 0, 0),  # untimed
         ("off", 64, -1, 2, 12345, "a", "gpu", "fp8", 50.0, 0, 0),  # ragged
         ("off", 8, 1024, 2, 8 * 1024, "a", "gpu", "fp8", 7.0, 16, 1)])  # one length only
f1 = write(os.path.join(tmp, "r1.csv"), rows)
# a second run of label off: a's medians 2 us higher at every length: the average is 1 us higher
f2 = write(os.path.join(tmp, "r2.csv"), line("off", "a", 64, "fp8", 12.0, 1.0))
rc, out, err = tool(f1, f2)
check(rc == 0, "a table: exit 0 (got %d: %s)" % (rc, err))
lines = out.strip().split("\n")
check(lines[0].startswith("| label | variant | batch | q_seq_len | kv lengths | fixed us | us a tile | GB/s |"),
      "the header (got %r)" % lines[0])
# a, off: fixed (10 + 12) / 2 = 11, 1.0 us a tile; 64 x 64 x 576 bytes a tile step in 1 us: 2359 GB/s
check("| off | a | 64 | 2 | 512, 1024, 2048 | 11.0 | 1.000 | 2359 | 0.0 | 128/1 128/1 128/1 |" in lines,
      "off a: the two runs averaged, fixed 11.0, 1.000 us a tile, 2359 GB/s (got %r)" % out)
check("| on | a | 64 | 2 | 512, 1024, 2048 | 14.0 | 0.750 | 3146 | 0.0 | 128/1 128/1 128/1 |" in lines,
      "on a: fixed 14.0, 0.750 us a tile, 3146 GB/s (got %r)" % out)
# b: bf16's 1152 bytes a row: 128 x 64 x 1152 in 3.5 us = 2696 GB/s
check("| off | b | 128 | 2 | 512, 1024, 2048 | 15.0 | 3.500 | 2696 | 0.0 | 256/1 256/1 256/1 |" in lines,
      "off b: bf16's row bytes (got %r)" % out)
check("cpu_ref" not in out and "| 8 |" not in out and "4096" not in out,
      "CPU, untimed, ragged rows and a one-length group left out (got %r)" % out)

# off the line: the least-squares fit and its worst residual; a grid that moves is marked
j = write(os.path.join(tmp, "j.csv"), line("x", "a", 32, "mxfp4", 10.0, 1.0, jitter=0.5)[:2] +
          [("x", 32, 2048, 2, 32 * 2048, "a", "gpu", "mxfp4", 41.5, 128, 2)])
rc, out, err = tool(j)
# points (8, 18.5), (16, 26), (32, 41.5): mean x 56/3, mean y 86/3, Sxx 896/3, Sxy 860/3
want_s = 860.0 / 896.0
want_c = 86.0 / 3.0 - want_s * 56.0 / 3.0
cells = [c.strip() for c in out.strip().split("\n")[-1].split("|")[1:-1]] if rc == 0 else []
check(rc == 0 and len(cells) == 10, "an off-line sweep: a row (got %d: %r %r)" % (rc, out, err))
if cells:
    check(abs(float(cells[5]) - want_c) < 0.06 and abs(float(cells[6]) - want_s) < 0.0006,
          "the least-squares line (want %.2f, %.4f; got %s, %s)" % (want_c, want_s, cells[5], cells[6]))
    check(float(cells[8]) > 0, "a worst residual above 0 (got %s)" % cells[8])
    check(cells[9] == "64/1 64/1 128/2 *" or cells[9].endswith("*"), "a grid that moved: marked (got %r)" % cells[9])
    check(abs(float(cells[7]) - 32 * 64 * 306 / (want_s * 1e3)) < 2, "MXFP4's 306 bytes a row (got %s)" % cells[7])

# --variants chooses and orders
rc, out, err = tool("--variants", "b,a", f1)
body = [l for l in out.strip().split("\n")[2:]]
check(rc == 0 and [l.split("|")[2].strip() for l in body if l.startswith("| off |")] == ["b", "a"],
      "--variants orders a label's rows (got %r %r)" % (out, err))

# --kv-lens: the line through the chosen lengths only (the moved grid's length left out)
rc, out, err = tool("--kv-lens", "512,1024", j)
cells = [c.strip() for c in out.strip().split("\n")[-1].split("|")[1:-1]] if rc == 0 else []
check(rc == 0 and len(cells) == 10 and cells[4] == "512, 1024" and abs(float(cells[6]) - 7.5 / 8) < 1e-3 and
      abs(float(cells[5]) - (18.5 - 8 * 7.5 / 8)) < 0.06 and not cells[9].endswith("*"),
      "--kv-lens 512,1024: the line through (8, 18.5), (16, 26) (got %d %r %r)" % (rc, out, err))

# the read limit (read_limit_us, once a case and format) as a row of its own; a peer's row
# (grid 0) shown as "-"
rl = write_rows(os.path.join(tmp, "rl.csv"),
              [r + (4.0 + 0.5 * r[2] / 64,) for r in line("s", "a", 64, "fp8", 10.0, 1.0, q=1)] +
              [r[:9] + (0, 0) + (4.0 + 0.5 * r[2] / 64,) for r in line("s", "peer", 64, "fp8", 20.0, 1.0, q=1)],
              HEADER.rstrip("\n") + ",read_limit_us")
rc, out, err = tool(rl)
check(rc == 0 and "| s | read limit (fp8) | 64 | 1 | 512, 1024, 2048 | 4.0 | 0.500 | 4719 | 0.0 | - - - |" in out,
      "the read limit's line, a row of its own (got %d %r %r)" % (rc, out, err))
check("| s | peer | 64 | 1 | 512, 1024, 2048 | 20.0 | 1.000 | 2359 | 0.0 | - - - |" in out,
      "a peer's row: its grid '-' (got %r)" % out)
rc, out, err = tool("--variants", "read limit (fp8)", rl)
check(rc == 0 and len(out.strip().split("\n")) == 3, "--variants names a read limit's row (got %r %r)" % (out, err))

# errors: exit 2, one line
bad = write(os.path.join(tmp, "bad.csv"), [("off", "x", 512, 2, 64 * 512, "a", "gpu", "fp8", 1.0, 1, 1)])
with open(os.path.join(tmp, "cut.csv"), "w") as f:
    f.write(HEADER + "0,off,64,512\n")
with open(os.path.join(tmp, "noexport.csv"), "w") as f:
    f.write("a,b,c\n1,2,3\n")
fmt = write(os.path.join(tmp, "fmt.csv"), line("off", "a", 64, "fp4", 10.0, 1.0))
one = write(os.path.join(tmp, "one.csv"), line("off", "a", 64, "fp8", 10.0, 1.0, kvs=(512,)))
for args, what in (([], "no file"), ([bad], "a batch not a number"), ([os.path.join(tmp, "cut.csv")], "a row cut short"),
                   ([os.path.join(tmp, "noexport.csv")], "not an export"), ([fmt], "an unknown format"),
                   ([one], "nothing with two lengths"), (["--bogus", f1], "an unknown option"),
                   (["--mlabench", "/nonexistent/mlabench", os.path.join(tmp, "x.h5")], "a program that cannot run"),
                   ([os.path.join(tmp, "missing.csv")], "a file that is not there"),
                   (["--kv-lens", "5x", f1], "--kv-lens not numbers"), (["--kv-lens"], "--kv-lens with no value")):
    rc, out, err = tool(*args)
    check(rc == 2 and len(err.strip().splitlines()) == 1 and err.startswith("kv_slopes: ") and not out,
          "%s: exit 2, one line (got %d, %r, %r)" % (what, rc, err, out))
sys.exit(finish("test_kv_slopes", tmp, " (the line, its GB/s, averaging, marks, choices, --kv-lens, the read limit and errors)"))
