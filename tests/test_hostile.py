#!/usr/bin/env python3
"""test_hostile.py: hostile files and full disks (issue 15). Each check names
the behaviour it pins; every one failed on the code before the fix.

  - a results file declaring 2^61 samples is refused (exit 3) by every
    command that reads results, never a heap overflow;
  - a truncated results file is bad input (exit 3), not an I/O error;
  - `run C -o C`, `compare A B -o A`, `merge A -o A` (the output is an input)
    are refused, the input untouched;
    -o onto a symlink, a FIFO or a device node is refused and left alone;
  - a FIFO as input is refused at once (no hang);
  - a full disk (a file-size limit, SIGXFSZ ignored) makes `gen` and `run`
    exit 4 with the system's reason, one line, no temporary left, the
    previous file untouched, no crash at exit; a missing folder exits 4;
  - a `gen` killed mid-write leaves its temporary, and the next `gen` to the
    same path removes it;
  - a crash or a hang of libhdf5 while it parses a file is contained: exit 3
    with one line naming the file (test hooks MLAB_H5_TEST_CRASH / _HANG make
    the contained child crash or hang, so the test does not depend on one
    libhdf5 version's bugs);
  - a case file whose name attribute holds a newline is refused by check,
    run and import (exit 3, one line, escaped; gen refuses such a --name:
    exit 2).
Usage: test_hostile.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no h5py).
"""
import glob
import os
import resource
import signal
import stat
import subprocess
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

from mlabtest import check, finish, programs, scratch

BADINPUT, IO, USAGE = 3, 4, 2


def run(cmd, limit_bytes=None, env=None, timeout=60):
    def pre():
        if limit_bytes is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    e = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=pre, env=e, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.strip()


def one_line(err, *words):
    return len(err.splitlines()) == 1 and all(w in err for w in words)


def read(p):
    with open(p, "rb") as f:
        return f.read()


def main():
    tool, mlab = programs()
    tmp = scratch("hostile")
    case = os.path.join(tmp, "c.h5")
    rc, _, err = run([mlab, "gen", "--batch", "2", "--kv-len", "64", "-o", case])
    check(rc == 0, f"gen of the small case: {rc} {err}")
    good = os.path.join(tmp, "r.h5")
    subprocess.run([tool, "write", good, "--seed", "1"], check=True)

    # -- results reader: sizes from the file are checked before allocating
    huge = os.path.join(tmp, "huge.h5")
    subprocess.run([tool, "write", huge, "--seed", "1"], check=True)
    with h5py.File(huge, "r+") as f:
        del f["samples_us"]
        f.create_dataset("samples_us", shape=(2**61,), dtype="f8", chunks=(1024,))
    for argv in (["export", huge], ["compare", huge, good], ["compare", good, huge],
                 ["report", huge, "-o", os.path.join(tmp, "x.md")],
                 ["plot", huge, "--out", os.path.join(tmp, "plots")]):
        rc, _, err = run([mlab] + argv)
        check(rc == BADINPUT and one_line(err, huge, "samples_us"),
              f"{argv[0]} of a file declaring 2^61 samples: want exit 3 and one line, "
              f"got {rc}: {err[:300]!r}")
    rc, out, err = run([tool, "check", huge])
    check(rc == BADINPUT, f"results_tool check of 2^61 samples: {rc} {out} {err[:200]}")

    trunc = os.path.join(tmp, "trunc.h5")
    data = read(good)
    open(trunc, "wb").write(data[: len(data) // 2])
    rc, _, err = run([mlab, "export", trunc])
    check(rc == BADINPUT and one_line(err, trunc), f"truncated results file: want 3, got {rc}: {err!r}")

    # -- -o must not replace an input or a non-regular file
    before = read(case)
    rc, _, err = run([mlab, "run", case, "--cpu-only", "--no-time", "-o", case])
    check(rc == USAGE and one_line(err, case, "input"),
          f"run C -o C: want exit 2 naming the input, got {rc}: {err!r}")
    check(read(case) == before, "run C -o C changed the case file")
    open(case, "wb").write(before)  # so that the checks below still have their case
    link = os.path.join(tmp, "link.h5")
    os.symlink(case, link)
    rc, _, err = run([mlab, "run", case, "--cpu-only", "--no-time", "-o", link])
    check(rc == USAGE and one_line(err, link), f"-o onto a symlink: want 2, got {rc}: {err!r}")
    check(os.path.islink(link) and read(case) == before, "-o onto a symlink replaced something")
    if os.path.islink(link):
        os.remove(link)
    open(case, "wb").write(before)
    victim = os.path.join(tmp, "victim.h5")
    other = os.path.join(tmp, "other.h5")
    subprocess.run([tool, "write", victim, "--seed", "5"], check=True)
    os.symlink(victim, other)
    rc, _, err = run([mlab, "export", good, "-o", other])
    check(rc == USAGE and os.path.islink(other), f"export -o onto a symlink: want 2, got {rc}: {err!r}")
    # compare's report and merge's file onto an input (both once replaced it: a
    # results file lost to a text report, or rewritten with another command line)
    good_bytes = read(good)
    for argv in (["compare", good, good, "-o", good], ["merge", good, "-o", good],
                 ["merge", good, "-o", other]):
        rc, _, err = run([mlab] + argv)
        check(rc == USAGE and one_line(err, argv[-1]) and read(good) == good_bytes and os.path.islink(other),
              f"{' '.join(argv[:1] + argv[-2:])}: want exit 2 naming it, nothing replaced; got {rc}: {err!r}")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    rc, _, err = run([mlab, "run", case, "--cpu-only", "--no-time", "-o", fifo], timeout=20)
    check(rc == USAGE and one_line(err, fifo) and stat.S_ISFIFO(os.lstat(fifo).st_mode),
          f"-o onto a FIFO: want 2, got {rc}: {err!r}")
    # a device node of our own (never a system one: a regression would replace it)
    dev = os.path.join(tmp, "null")
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError:
        dev = None  # not root: no device node to aim at
    if dev:
        rc, _, err = run([mlab, "gen", "--batch", "1", "--kv-len", "8", "-o", dev])
        check(rc == USAGE and one_line(err, dev) and stat.S_ISCHR(os.lstat(dev).st_mode),
              f"gen -o onto a device node: want 2, got {rc}: {err!r}")
    rc, _, err = run([mlab, "report", good, "-o", good])
    check(rc == USAGE and one_line(err, good, "input"), f"report R -o R: want 2, got {rc}: {err!r}")

    # -- non-regular input: refused at once
    t0 = time.time()
    try:
        rc, _, err = run([mlab, "check", fifo], timeout=10)
    except subprocess.TimeoutExpired:
        rc, err = None, "hung"
    check(rc == BADINPUT and one_line(err, fifo, "FIFO"),
          f"check FIFO: want exit 3 at once, got {rc} after {time.time() - t0:.1f} s: {err!r}")
    try:
        rc, _, err = run([mlab, "export", fifo], timeout=10)
    except subprocess.TimeoutExpired:
        rc, err = None, "hung"
    check(rc == BADINPUT and one_line(err, fifo), f"export FIFO: want exit 3, got {rc}: {err!r}")

    # -- full disk: exit 4 with the system's reason, no temporary, no crash
    disk = {"gen": 0, "run": 0}
    out = os.path.join(tmp, "full.h5")
    for limit in (0, 4096, 100000, 2000000):
        rc, _, err = run([mlab, "gen", "--batch", "4", "--kv-len", "1024", "-o", out], limit)
        check(rc == IO and one_line(err, out, "File too large"),
              f"gen under a {limit}-byte file limit: want exit 4 with the reason, got {rc}: {err!r}")
        check(glob.glob(out + ".tmp.*") == [] and not os.path.exists(out),
              f"gen under a {limit}-byte limit left {os.listdir(tmp)}")
        disk["gen"] += 1
    # the previous results file survives a failed run
    prev = os.path.join(tmp, "prev.h5")
    rc, _, err = run([mlab, "run", case, "--cpu-only", "--no-time", "-o", prev])
    check(rc == 0, f"run -o prev: {rc} {err}")
    old = read(prev)
    for limit in (0, 4096, 12000):
        rc, _, err = run([mlab, "run", case, "--cpu-only", "--no-time", "-o", prev], limit)
        check(rc == IO and one_line(err.splitlines()[-1] if err else "", prev, "File too large"),
              f"run under a {limit}-byte file limit: want exit 4 with the reason, got {rc}: {err!r}")
        check(read(prev) == old and glob.glob(prev + ".tmp.*") == [],
              f"run under a {limit}-byte limit damaged the old file or left a temporary")
        disk["run"] += 1
    rc, _, err = run([mlab, "gen", "--batch", "1", "--kv-len", "8", "-o",
                      os.path.join(tmp, "no", "such", "dir.h5")])
    check(rc == IO and one_line(err, "No such file"), f"gen into a missing folder: {rc} {err!r}")
    # a real full disk: a 1 MB tmpfs, when this machine lets us mount one (root)
    mnt = os.path.join(tmp, "tmpfs")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt],
                      capture_output=True).returncode == 0:
        try:
            out = os.path.join(mnt, "full.h5")
            rc, _, err = run([mlab, "gen", "--batch", "4", "--kv-len", "1024", "-o", out])
            check(rc == IO and one_line(err, out, "No space left on device"),
                  f"gen onto a full tmpfs: want exit 4 with the reason, got {rc}: {err!r}")
            check(os.listdir(mnt) == [], f"gen onto a full tmpfs left {os.listdir(mnt)}")
            disk["gen"] += 1
        finally:
            subprocess.run(["umount", mnt])
    else:
        print("note: cannot mount a tmpfs here (not root?): the ENOSPC case is skipped")

    # a read-only folder (as root, permissions do not stop us: sysfs refuses new files)
    ro = os.path.join(tmp, "ro")
    os.mkdir(ro, 0o555)
    target = os.path.join(ro if os.geteuid() != 0 else "/sys", "x.h5")
    for argv in (["gen", "--batch", "1", "--kv-len", "8", "-o", target],
                 ["run", case, "--cpu-only", "--no-time", "-o", target]):
        rc, _, err = run([mlab] + argv)
        check(rc == IO and one_line(err, target, "denied"),
              f"{argv[0]} into a read-only folder: want exit 4, got {rc}: {err!r}")

    # -- a killed gen: its temporary goes with the next writer
    big = os.path.join(tmp, "big.h5")
    kills = 0
    for i in range(3):
        w = subprocess.Popen([mlab, "gen", "--batch", "16", "--kv-len", "4096", "-o", big],
                             stderr=subprocess.DEVNULL)
        mine = f"{big}.tmp.{w.pid}"
        t0 = time.time()
        while not os.path.exists(mine) and w.poll() is None and time.time() - t0 < 30:
            time.sleep(0.001)
        w.send_signal(signal.SIGKILL)
        w.wait()
        kills += os.path.exists(mine)
    check(kills > 0, "no kill of gen landed mid-write: the test proved nothing")
    rc, _, err = run([mlab, "gen", "--batch", "1", "--kv-len", "8", "-o", big])
    check(rc == 0 and glob.glob(big + ".tmp.*") == [],
          f"the next gen did not remove the killed writers' temporaries: {glob.glob(big + '.tmp.*')}")

    # -- libhdf5 crashing or hanging inside the contained child
    for hook, words in (("MLAB_H5_TEST_CRASH", ["crashed", "corrupt file"]),
                        ("MLAB_H5_TEST_HANG", ["did not finish"])):
        for argv, path in ((["check", case], case), (["export", good], good)):
            try:
                rc, _, err = run([mlab] + argv, env={hook: "1", "MLAB_H5_TIMEOUT": "2"}, timeout=30)
            except subprocess.TimeoutExpired:
                rc, err = None, "hung"
            check(rc == BADINPUT and one_line(err, path, *words),
                  f"{hook} {argv[0]}: want exit 3 naming the file, got {rc}: {err!r}")

    # -- check's one line escapes a newline in a case name (a file's: gen
    # refuses such a --name, so the attribute is rewritten)
    named = os.path.join(tmp, "named.h5")
    rc, _, err = run([mlab, "gen", "--batch", "1", "--kv-len", "8", "--name", "ab", "-o", named])
    check(rc == 0, f"gen --name ab: {rc} {err}")
    rc, _, err = run([mlab, "gen", "--batch", "1", "--kv-len", "8", "--name", "a\nb", "-o", named + "2"])
    check(rc == 2 and not os.path.exists(named + "2"), f"gen --name with a newline: want exit 2, got {rc} {err}")
    with h5py.File(named, "r+") as f:
        t = f.attrs["name"]
        f.attrs["name"] = b"a\nb" if isinstance(t, bytes) else "a\nb"
    for argv in (["check", named], ["run", named, "--cpu-only", "-o", named + ".res"],
                 ["import", named, "-o", named + ".imp"]):
        rc, out, err = run([mlab] + argv)
        check(rc == BADINPUT and one_line(err, named, "attribute name", "a\\nb") and "a\nb" not in out + err
              and (argv[0] == "check" or not os.path.exists(argv[-1])),
              f"{argv[0]} of a case named with a newline: want exit 3, one line with a\\nb escaped, got {rc} {err!r}")

    return finish("test_hostile", tmp,
                  detail=f" (disk-full runs: gen {disk['gen']}, run {disk['run']}; "
                         f"gen kills mid-write: {kills})")


if __name__ == "__main__":
    sys.exit(main())
