#!/usr/bin/env python3
"""test_cli.py: the mlabench program's behaviour seen from its command line:
exit codes (harness/exitcodes.h), messages and files.

Pins:
  - `mlabench --help` exits 0 and lists the commands; an unknown command exits 2
  - `run --cpu-only` on the embedded default case exits 0 and prints the
    accuracy table with the rows bf16 fp8 fp8_pexact fp8_kvonly mxfp4_up
    mxfp4_even
  - `run --require-gpu` without a GPU (a -DMLAB_GPU=none build) exits 77
  - `run -o R.h5` writes a results file that `export R.h5` reads (exit 0)
  - `run --splits` outside 1..64 exits 2 with a one-line message (no clamping)
  - `gen` with a bad value exits 2 with a one-line message and writes nothing
  - `gen` twice with the same options gives byte-identical datasets (h5py;
    without it, equal `check` lines and file sizes), also with one OpenMP
    thread; another seed differs
  - `check` exits 4 on a missing file and 3 on a file that is not HDF5
  - `run` on a bad case file exits 3 and writes no results file
  - a user's slips (found by a review as a new user): `-o -` and `-o ''` to
    the commands that write HDF5 (run, gen, import, merge) exit 2 before any
    work and write no file named "-"; an -o path of PATH_MAX bytes or more
    exits 2 and replaces no other file (gen once cut it at 1023 bytes and
    overwrote the file that prefix named); one case twice in a run (the same
    file, or a file and the same generated case) exits 2; an --input-scale
    past bf16's range exits 2 in run and gen (run computed on inf); a write
    to a full device (/dev/full) or past `ulimit -f` exits 4 with the
    system's reason and leaves no temporary (report to stdout exited 0, export
    past the limit was killed); an unknown short option inside a cluster is
    named (not the command); control characters in --label / --name exit 2,
    escaped in the message; an option with a value given twice exits 2 (the
    second replaced the first: `-o` twice wrote one file); `gen` of several
    cases onto a file says why, and with -o naming an .h5 file (`-o cases.h5`) exits 2 before
    making a folder of that name
  - a list-valued case option (--batch, --kv-len, --kv-lens, --q-seq-len)
    given twice, or with items that are no integers ("4 32", "4;32", "1:2"),
    or a list's next values after a space (gen --batch 4 32, gen --batch 4
    32,64: a word of digits and commas, as run reads one): one line, exit 2,
    saying how a list is written ("(a list: --batch 4,32)"); not for a
    value out of range or another stray word (",32": the output goes after
    -o); gen --help shows it on --batch's line; run takes such a word for a
    case file: when it cannot be opened, its one line (exit 4) says the list
    as one word (run --batch 1 32: "(a list is one word:
    --batch 1,32)"), not for a word of numbers elsewhere or another name
`gen --suite` is not run here (gigabytes).
Environment: MLAB_BIN = the mlabench binary (tests/CMakeLists.txt).
Exit 0 pass, 1 fail, 77 skip ($MLAB_BIN missing).
"""
import os
import subprocess
import sys
import tempfile

from mlabtest import bin_or_skip

BIN = bin_or_skip()

USAGE, BADINPUT, IO, NOGPU = 2, 3, 4, 77
FAILURES = []


def check(ok, behaviour, detail=""):
    print(("ok:   " if ok else "FAIL: ") + behaviour)
    if not ok:
        FAILURES.append(behaviour)
        if detail:
            print("      " + detail.strip().replace("\n", "\n      "))


def mlab(*args, env=None):
    full = dict(os.environ, **(env or {}))
    return subprocess.run([BIN, *args], env=full, capture_output=True, text=True, timeout=120)


def show(p):
    return f"exit {p.returncode}\nstdout: {p.stdout[-1500:]}\nstderr: {p.stderr[-1500:]}"


def test_top_level():
    p = mlab("--help")
    check(p.returncode == 0 and "usage: mlabench" in p.stdout and " run " in p.stdout,
          "`mlabench --help` exits 0 and lists the commands", show(p))
    p = mlab("frobnicate")
    check(p.returncode == USAGE and "frobnicate" in p.stderr,
          "an unknown command exits 2 and names it", show(p))
    return "gpu backend none" in mlab("--help").stdout


def table_rows(stdout):
    """First word of each line of the CPU accuracy table."""
    rows, inside = [], False
    for line in stdout.splitlines():
        if line.startswith("CPU reference"):
            inside = True
        elif inside and line.startswith("  ") and line.split():
            rows.append(line.split()[0])
        elif inside and not line.strip():
            inside = False
    return rows


def test_run(tmp, gpu_none):
    p = mlab("run", "--cpu-only")
    rows = table_rows(p.stdout)
    want = ["bf16", "fp8", "fp8_pexact", "fp8_kvonly", "mxfp4_up", "mxfp4_even", "mxfp4_mx8", "mxfp4_a8",
            "fp8_qrow", "mxfp4_a8_qrow"]
    check(p.returncode == 0 and all(w in rows for w in want),
          "`run --cpu-only` on the default case exits 0 and prints the accuracy table rows "
          + " ".join(want), f"table rows {rows}\n" + show(p))

    if gpu_none:
        p = mlab("run", "--require-gpu")
        check(p.returncode == NOGPU, "`run --require-gpu` without a GPU (MLAB_GPU=none) exits 77",
              show(p))
    else:
        print("note: this mlabench has a GPU back end: the --require-gpu check is skipped")

    res = os.path.join(tmp, "R.h5")
    p = mlab("run", "--cpu-only", "--quiet", "-o", res)
    check(p.returncode == 0 and os.path.isfile(res), "`run -o R.h5` exits 0 and writes R.h5",
          show(p))
    e = mlab("export", res)
    lines = e.stdout.splitlines()
    col = lines[0].split(",").index("variant") if lines and "variant" in lines[0] else 0
    variants = [ln.split(",")[col] for ln in lines[1:] if ln.count(",") > col]
    check(e.returncode == 0 and lines and lines[0].startswith("run_index,")
          and variants == ["cpu_ref_" + w for w in want],
          "`export R.h5` reads the results file of `run`: a header and the 8 CPU rows",
          f"variants {variants}\n" + show(e))
    # a run that used no GPU records none: gpu_index -1, not device 0 (or, in a
    # CUDA build on a machine without one, whatever the stack held)
    files = [("--cpu-only", res)]
    if gpu_none:
        dev = os.path.join(tmp, "R_dev3.h5")
        p = mlab("run", "--device", "3", "--quiet", "-o", dev)
        check(p.returncode == 0, "`run --device 3` without a GPU runs the CPU half, exit 0", show(p))
        files.append(("--device 3 without a GPU", dev))
    try:
        import h5py
    except ImportError:
        print("note: no h5py: the gpu_index check is skipped")
        return res
    for what, path in files:
        with h5py.File(path, "r") as f:
            gi = int(f.attrs["gpu_index"]) if "gpu_index" in f.attrs else None
        check(gi == -1, f"`run {what}` records gpu_index -1 (no device used)", f"gpu_index {gi}")
    return res


def test_gen_rejects(tmp):
    out = os.path.join(tmp, "bad.h5")
    bad = [(["--batch", "0"], "--batch 0"),
           (["--q-seq-len", "5"], "--q-seq-len 5"),
           (["--tie", "sideways"], "--tie sideways"),
           (["--seed", "-1"], "--seed -1")]
    for args, what in bad:
        p = mlab("gen", *args, "-o", out)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == USAGE and len(lines) == 1 and lines[0].startswith("mlabench gen:")
              and not os.path.exists(out),
              f"`gen {what}` exits 2 with a one-line message and writes nothing", show(p))
    p = mlab("gen", "--batch", "2")
    lines = p.stderr.strip().splitlines()
    check(p.returncode == USAGE and len(lines) == 1 and "-o" in lines[0],
          "`gen` without -o exits 2 with a one-line message naming -o", show(p))


def test_run_rejects(tmp):
    out = os.path.join(tmp, "bad_splits.h5")
    for n in ("65", "0"):
        p = mlab("run", "--cpu-only", "--splits", n, "-o", out)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == USAGE and len(lines) == 1 and "--splits" in lines[0]
              and "1..64" in lines[0] and not os.path.exists(out),
              f"`run --splits {n}` is refused (exit 2, one line naming 1..64), never clamped",
              show(p))


def case_datasets(path):
    import h5py  # only called when importable
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                out[name] = (str(obj.dtype), obj.shape, obj[()].tobytes())
        f.visititems(visit)
    return out


def test_gen_deterministic(tmp):
    opts = ["--kv-lens", "3,0,5,1", "--q-seq-len", "2", "--seed", "7", "--tie", "even",
            "--input-scale", "0.02"]
    a, b, c, d = (os.path.join(tmp, n) for n in ("a.h5", "b.h5", "c.h5", "d.h5"))
    one_thread = {"OMP_NUM_THREADS": "1"}
    ok = all(mlab("gen", *o, "-o", path, env=env).returncode == 0
             for o, path, env in ((opts, a, None), (opts, b, None),
                                  (opts[:5] + ["8"] + opts[6:], c, None), (opts, d, one_thread)))
    check(ok, "`gen` writes small custom cases (exit 0)")
    if not ok:
        return
    try:
        import h5py  # noqa: F401
    except ImportError:
        print("note: no h5py: comparing `check` output and sizes instead of datasets")
        ca = mlab("check", a).stdout.replace(a, "X")
        cb = mlab("check", b).stdout.replace(b, "X")
        check(ca == cb and ca and os.path.getsize(a) == os.path.getsize(b),
              "`gen` twice with the same options gives the same `check` line and size", ca + cb)
        return
    da, db, dc, dd = (case_datasets(x) for x in (a, b, c, d))
    check(da and da == db, "`gen` twice with the same options gives byte-identical datasets",
          f"differ: {[k for k in da if da.get(k) != db.get(k)]}")
    check(da and da == dd, "`gen` with OMP_NUM_THREADS=1 gives the same datasets (no thread dependence)",
          f"differ: {[k for k in da if da.get(k) != dd.get(k)]}")
    check(len(da) >= 8 and da["q"][2] != dc["q"][2] and da["kv_bf16"][2] != dc["kv_bf16"][2],
          "`gen` with another seed gives different q and kv (the comparison can fail)")


def test_bad_files(tmp, results):
    missing = os.path.join(tmp, "no_such_case.h5")
    text = os.path.join(tmp, "notes.h5")
    with open(text, "w") as f:
        f.write("not an HDF5 file\n")
    p = mlab("check", missing)
    check(p.returncode == IO and "no_such_case.h5" in p.stderr,
          "`check` on a missing file exits 4 and names it", show(p))
    p = mlab("check", text)
    check(p.returncode == BADINPUT and "notes.h5" in p.stderr,
          "`check` on a text file exits 3 and names it", show(p))
    for case, what in ((text, "a text file"), (results, "a results file (HDF5, not a case)")):
        out = os.path.join(tmp, "should_not_exist.h5")
        p = mlab("run", case, "--cpu-only", "-o", out)
        check(p.returncode == BADINPUT and not os.path.exists(out),
              f"`run` on {what} as a case exits 3 and writes no results file", show(p))


def one_line(p, code, *words):
    lines = p.stderr.strip().splitlines()
    return p.returncode == code and len(lines) == 1 and all(w in lines[0] for w in words)


def test_slips(tmp, results):
    case = os.path.join(tmp, "slip.h5")
    p = mlab("gen", "--batch", "2", "--kv-len", "16", "--quiet", "-o", case)
    if p.returncode != 0:
        check(False, "gen writes the slips' case", show(p))
        return
    d = os.path.join(tmp, "slips")
    os.mkdir(d)
    writers = {"run": ["run", case, "--cpu-only", "--quiet"], "gen": ["gen", "--batch", "1", "--kv-len", "8"],
               "import": ["import", case], "merge": ["merge", results]}
    for name, argv in writers.items():
        for out, what in (("-", "this command writes an HDF5 file"), ("", "an empty output file name")):
            p = subprocess.run([BIN, *argv, "-o", out], cwd=d, capture_output=True, text=True, timeout=120)
            check(one_line(p, USAGE, what) and not os.listdir(d),
                  f"`{name} -o {out!r}` exits 2 before any work and writes no file", show(p))
    # a path of PATH_MAX (4096) bytes: refused, and the file its first 1023 bytes name is untouched
    deep = os.path.join(tmp, *(["d" * 200] * 5))
    os.makedirs(deep)
    victim = os.path.join(deep, "k" * (1023 - len(deep) - 1 - 3) + ".h5")
    open(victim, "w").write("precious")
    longp = victim + "x" * (4096 - len(victim))
    p = mlab("gen", "--batch", "1", "--kv-len", "8", "--quiet", "-o", longp)
    check(one_line(p, USAGE, "PATH_MAX") and open(victim).read() == "precious",
          "`gen -o` a path of PATH_MAX bytes exits 2 and replaces no other file", show(p))
    # one case twice
    out = os.path.join(tmp, "twice.h5")
    for argv, what in (([case, case], "the same file twice"),
                       ([case, "--batch", "2", "--kv-len", "16"], "a file and the same generated case")):
        p = mlab("run", *argv, "--cpu-only", "--quiet", "-o", out)
        check(p.returncode == USAGE and "each case once" in p.stderr and not os.path.exists(out),
              f"`run` with {what} exits 2 and writes no results", show(p))
    for cmd in ("run", "gen"):
        p = mlab(cmd, "--input-scale", "1e38", "--batch", "1", "--kv-len", "8", "--quiet", "-o", out)
        check(p.returncode == USAGE and "non-finite" in p.stderr and not os.path.exists(out),
              f"`{cmd} --input-scale 1e38` (past bf16) exits 2 naming the non-finite value", show(p))
    # writes that fail: the system's reason, exit 4, no temporary
    if os.path.exists("/dev/full"):
        for argv in (["report", results], ["export", results]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([BIN, *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
            check(p.returncode == IO and "No space left" in p.stderr,
                  f"`{argv[0]}` to a full stdout exits 4 with the reason", f"exit {p.returncode}: {p.stderr}")
    for cmd in ("export", "report"):
        out = os.path.join(d, "capped." + ("csv" if cmd == "export" else "md"))
        p = subprocess.run(["sh", "-c", 'ulimit -f 1 && exec "$@"', "sh", BIN, cmd, results, "-o", out],
                           capture_output=True, text=True, timeout=120)
        check(one_line(p, IO, "File too large") and not os.listdir(d),
              f"`{cmd} -o` past `ulimit -f` exits 4 with the reason and leaves no file", show(p))
    p = mlab("check", "-c.h5")
    check(one_line(p, USAGE, "'-c'"), "an unknown short option in a cluster is named", show(p))
    out = os.path.join(tmp, "ctl.h5")
    for argv, what in ((["run", case, "--cpu-only", "--label", "rocm\n\x1b[2J"], "--label"),
                       (["gen", "--batch", "1", "--kv-len", "8", "--name", "x\x1b[2Jy"], "--name")):
        p = mlab(*argv, "-o", out)
        check(one_line(p, USAGE, what, "\\x1b") and "\x1b" not in p.stderr and not os.path.exists(out),
              f"control characters in {what} exit 2, escaped in the one line", show(p))
    p = mlab("gen", "--batch", "2", "--batch", "3", "--dry-run")
    check(one_line(p, USAGE, "--batch given twice"), "a case option given twice exits 2", show(p))
    # a list given as two options, or with a separator other than the comma: the one line
    # says how a list is written (the hint of the given-twice line was lost in a8a2482)
    for argv, hint in ((["gen", "--batch", "2", "--batch", "3", "--dry-run"], "(a list: --batch 4,32)"),
                       (["run", "--kv-len", "8", "--kv-len", "16", "--cpu-only"], "(a list: --kv-len 1024,8192)"),
                       (["gen", "--batch", "4 32", "--dry-run"], "'4 32' is not an integer in 1..1048576 (a list: --batch 4,32)"),
                       (["gen", "--batch", "4;32", "--dry-run"], "(a list: --batch 4,32)"),
                       (["run", "--q-seq-len", "1:2", "--cpu-only"], "(a list: --q-seq-len 1,2)"),
                       (["gen", "--kv-lens", "8,x", "--dry-run"], "(a list: --kv-lens 1024,0,512)"),
                       (["gen", "--batch", "4", "32", "--dry-run"], "unexpected argument '32' (a list is one word: --batch 4,32"),
                       # a word of numbers and commas, as run takes it (it said "the output goes after -o")
                       (["gen", "--batch", "4", "32,64", "--dry-run"],
                        "unexpected argument '32,64' (a list is one word: --batch 4,32")):
        p = mlab(*argv)
        check(one_line(p, USAGE, hint), f"`{' '.join(argv)}` exits 2, its one line with {hint}", show(p))
    for word in (",32", "x.h5"):  # no list's items: the output's place, not the list
        p = mlab("gen", "--batch", "4", word, "--dry-run")
        check(one_line(p, USAGE, f"unexpected argument '{word}' (the output goes after -o") and "a list" not in p.stderr,
              f"`gen --batch 4 {word}` exits 2, its one line without the list hint", show(p))
    # run takes the word after a list's value for a case file: the line of the file that cannot
    # be opened says how the list is written (it said "32: cannot open" alone), exit 4 as before
    out = os.path.join(tmp, "listword.h5")
    for argv, hint in ((["--batch", "1", "32", "--kv-len", "8"], "32: cannot open: No such file or directory "
                        "(a list is one word: --batch 1,32)"),
                       (["--batch=1", "--kv-len", "8", "16,32"], "16,32: cannot open: No such file or directory "
                        "(a list is one word: --kv-len 8,16,32)"),
                       (["--batch", "1", "--kv-len", "8", "--no-time", "32"], "32: cannot open"),
                       (["--batch", "1", "no_such_case.h5", "--kv-len", "8"], "no_such_case.h5: cannot open")):
        p = subprocess.run([BIN, "run", *argv, "--cpu-only", "-o", out], cwd=tmp, capture_output=True,
                           text=True, timeout=120)
        listed = "a list" in hint
        check(one_line(p, IO, hint) and ("a list" in p.stderr) == listed and not os.path.exists(out),
              f"`run {' '.join(argv)}` exits 4, its one line {'with' if listed else 'without'} the list "
              f"as one word", show(p))
    p = mlab("gen", "--batch", "0", "--dry-run")
    check(one_line(p, USAGE, "'0' is not an integer in 1..1048576") and "a list" not in p.stderr,
          "a list's value out of range exits 2 without the list hint (its form was right)", show(p))
    p = mlab("gen", "--help")
    check(p.returncode == 0 and any(l.lstrip().startswith("--batch B[,B..]") and "(a list: --batch 4,32)" in l
                                    for l in p.stdout.splitlines()),
          "`gen --help` shows a list on --batch's line: (a list: --batch 4,32)", show(p))
    for argv in (["run", case, "--cpu-only", "-o", out, "-o", out + "2"], ["export", results, "-o", out, "--output", out],
                 ["run", case, "--cpu-only", "--slice", "0/2", "--slice", "1/2"]):
        p = mlab(*argv)  # (the results commands print their usage after the line)
        check(p.returncode == USAGE and "given twice" in (p.stderr.splitlines() or [""])[0] and not os.path.exists(out),
              f"`{argv[0]}` with {argv[-2]} given twice exits 2 (the last won, silently)", show(p))
    afile = os.path.join(tmp, "a_file")
    open(afile, "w").write("x")
    p = mlab("gen", "--batch", "1,2", "--kv-len", "8", "--quiet", "-o", afile)
    check(one_line(p, IO, "cannot create the folder: Not a directory") and open(afile).read() == "x",
          "`gen` of two cases onto a file exits 4 with the reason", show(p))
    for argv in (["--batch", "1,2", "--kv-len", "8"], ["--suite"]):
        named = os.path.join(tmp, "cases.H5")
        p = mlab("gen", *argv, "--quiet", "-o", named)
        check(one_line(p, USAGE, "cases go to a folder, and this names a file") and not os.path.exists(named),
              f"`gen {argv[0]}` (several cases) with -o naming an .h5 file exits 2, no folder made", show(p))


def main():
    with tempfile.TemporaryDirectory(prefix="mlab_cli_") as tmp:
        gpu_none = test_top_level()
        results = test_run(tmp, gpu_none)
        test_gen_rejects(tmp)
        test_run_rejects(tmp)
        test_gen_deterministic(tmp)
        test_bad_files(tmp, results)
        test_slips(tmp, results)
        leftovers = [n for n in os.listdir(tmp) if ".tmp." in n]
        check(not leftovers, "no temporary files are left behind", str(leftovers))
    print(f"test_cli: {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
