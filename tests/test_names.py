#!/usr/bin/env python3
"""test_names.py: one case naming rule for every producer (issue 13.2).

Pins:
  - `mlabench gen --dry-run` names every case as data/case_name.py (the rule
    data/record_competition.py names its files with) does, over every
    parameter that changes the bytes: batch, uniform kv length, a short and
    a long (hashed) list of lengths, q_seq_len, seed, input scale (0.02, 0.5,
    1e-05, pi), the mxfp4 tie rule and the fp8 flavour
  - the suite keeps the shipped names (b4_kv1024_s4217 ... b256_kv8192_s9826)
  - a uniform --kv-lens list is named as the same --batch/--kv-len case
  - the file gen writes carries that name (its /name attribute, via `check`)
  - the recorder names by case_name.py (checked through recorded_name when
    torch is importable; its naming function alone otherwise)
  - contradicting options exit 2 with one line and write nothing:
    --batch 2 --kv-lens 100,0,300; --kv-len with --kv-lens; --suite with
    --batch/--seed/--name; --name for a sweep; a repeated list value
  - --opt=value is accepted and gives the same names as --opt value
Exit 0 pass, 1 fail, 77 skip ($MLAB_BIN missing).
"""
import math
import os
import sys
import tempfile

SRC = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(SRC, "data"))
from case_name import case_name  # noqa: E402

from mlabtest import bin_or_skip, run, say as check, finish  # noqa: E402

BIN = bin_or_skip()


def mlab(*args):
    return run([BIN, *args], timeout=120)


def dry_names(*args):
    p = mlab("gen", "--dry-run", *args)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return [os.path.basename(line.split()[0])[:-3] for line in p.stdout.splitlines()
            if line.split() and line.split()[0].endswith(".h5")], ""


SUITE = [(4, 1024, 4217), (4, 8192, 4220), (32, 1024, 5412), (32, 8192, 5415),
         (64, 1024, 1357), (64, 8192, 1360), (256, 1024, 9823), (256, 8192, 9826)]
LONG = [8192] * 255 + [17]


def cases():
    """(gen arguments, case_name arguments)"""
    yield [], dict(batch=1, kv=1024, seed=1)
    yield ["--batch", "4", "--kv-len", "8192", "--seed", "4220", "--q-seq-len", "2"], \
        dict(batch=4, kv=8192, seed=4220, q_seq_len=2)
    yield ["--batch", "3", "--kv-len", "0"], dict(batch=3, kv=0, seed=1)
    yield ["--kv-lens", "5,0,1,77,31", "--q-seq-len", "3"], dict(batch=5, kv=[5, 0, 1, 77, 31], seed=1, q_seq_len=3)
    yield ["--kv-lens", ",".join(map(str, LONG)), "--seed", "7"], dict(batch=256, kv=LONG, seed=7)
    yield ["--kv-lens", "100,100,100"], dict(batch=3, kv=100, seed=1)
    for x in ["0.02", "0.5", "1e-05", repr(math.pi)]:
        yield ["--batch", "2", "--kv-len", "64", "--input-scale", x], \
            dict(batch=2, kv=64, seed=1, input_scale=float(x))
    yield ["--batch", "2", "--kv-len", "64", "--tie", "even"], dict(batch=2, kv=64, seed=1, tie="even")
    yield ["--batch", "2", "--kv-len", "64", "--fp8", "e4m3fnuz"], dict(batch=2, kv=64, seed=1, fp8="e4m3fnuz")
    yield ["--batch", "2", "--kv-len", "64", "--seed", "18446744073709551615", "--input-scale", "0.02",
           "--tie", "even", "--fp8", "e4m3fnuz", "--q-seq-len", "4"], \
        dict(batch=2, kv=64, seed=18446744073709551615, input_scale=0.02, tie="even", fp8="e4m3fnuz", q_seq_len=4)


def main():
    tmp = tempfile.mkdtemp(prefix="mlab_names_")
    for gen_args, kw in cases():
        want = case_name(**kw)
        got, err = dry_names(*gen_args, "-o", os.path.join(tmp, "x.h5"))
        check(got == [want], f"gen {' '.join(gen_args)[:60]} is named {want}", f"got {got} {err}")

    got, err = dry_names("--suite", "-o", tmp)
    want = [case_name(b, l, s) for b, l, s in SUITE]
    check(got == want and want[0] == "b4_kv1024_s4217" and want[-1] == "b256_kv8192_s9826",
          "the suite keeps the shipped names (b4_kv1024_s4217 ...)", f"got {got} {err}")
    got, err = dry_names("--suite", "--input-scale", "0.02", "--tie", "even", "-o", tmp)
    want = [case_name(b, l, s, 1, 0.02, "even") for b, l, s in SUITE]
    check(got == want, "the suite with a scale and a tie rule: the same rule", f"got {got} {err}")

    sweep, err = dry_names("--batch", "4,32", "--kv-len", "1024,8192", "--q-seq-len", "1,2", "-o", tmp)
    want = [case_name(b, l, 1, q) for b in (4, 32) for l in (1024, 8192) for q in (1, 2)]
    check(sweep == want, "a sweep: batch outermost, then kv length, then q_seq_len", f"got {sweep} {err}")
    eq, err = dry_names("--batch=4,32", "--kv-len=1024,8192", "--q-seq-len=1,2", f"-o{tmp}")
    check(eq == sweep, "--opt=value gives the same cases as --opt value", f"got {eq} {err}")

    # the recorder
    try:
        import record_competition  # needs torch, h5py
        import argparse
        a = argparse.Namespace(input_scale=0.02, tie="even", fp8="e4m3fnuz")
        check(record_competition.recorded_name(4, 1024, 4217, a, 2) ==
              case_name(4, 1024, 4217, 2, 0.02, "even", "e4m3fnuz"),
              "record_competition.recorded_name follows case_name.py")
        # the producer commit: MLAB_COMMIT wins over a .git the copied tree may carry
        saved = {k: os.environ.pop(k, None) for k in ("MLAB_COMMIT", "MLAB_COMMIT_DIRTY")}
        try:
            os.environ["MLAB_COMMIT"] = "abc1234"
            c1 = record_competition.git_commit()
            os.environ["MLAB_COMMIT_DIRTY"] = "1"
            c2 = record_competition.git_commit()
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None)
                if v is not None:
                    os.environ[k] = v
        check(c1 == "abc1234" and c2 == "abc1234-dirty",
              "record_competition.git_commit takes MLAB_COMMIT (and MLAB_COMMIT_DIRTY=1) over the tree's .git",
              f"got {c1!r}, {c2!r}")
    except (ImportError, SystemExit) as e:  # the recorder exits when torch is missing
        text = open(os.path.join(SRC, "data", "record_competition.py")).read()
        check("from case_name import case_name" in text and "return case_name(" in text,
              f"record_competition.py names by case_name.py (torch missing: {e}; checked its source)")
        check('os.environ.get("MLAB_COMMIT")' in text,
              "record_competition.py takes MLAB_COMMIT over the tree's .git (torch missing: checked its source)")

    # the written file carries the name
    path = os.path.join(tmp, "w.h5")
    p = mlab("gen", "--kv-lens", "3,0,2", "--tie", "even", "-o", path)
    c = mlab("check", path)
    want = case_name(3, [3, 0, 2], 1, tie="even")
    check(p.returncode == 0 and f": ok: {want}," in c.stdout, f"the written file's name is {want}",
          p.stderr + c.stdout + c.stderr)

    # the rule on a file's own attributes (h5py gives numpy integers: a kv
    # length that is one, not a list), and values it does not know refused
    try:
        import numpy as np
        n = case_name(np.int32(3), np.int32(8), np.uint64(1))
        check(n == "b3_kv8_s1", f"case_name on numpy integers: {n}")
    except Exception as e:  # noqa: BLE001 - the failure is the finding
        check(False, f"case_name on numpy integers raised {type(e).__name__}: {e}")
    for kw in ({"tie": "UP"}, {"fp8": "E4M3FN"}):
        try:
            case_name(1, 8, 1, **kw)
            check(False, f"case_name refuses {kw} (it named the case as if another value)")
        except ValueError:
            check(True, f"case_name refuses {kw}")

    # contradictions
    for args, words in [
            (["--batch", "2", "--kv-lens", "100,0,300"], "--kv-lens lists 3"),
            (["--kv-len", "5", "--kv-lens", "1,2"], "contradict"),
            (["--suite", "--batch", "4"], "--suite fixes"),
            (["--suite", "--seed", "4"], "--suite fixes"),
            (["--suite", "--name", "a"], "--suite fixes"),
            (["--batch", "1,2", "--name", "a"], "--name names one case"),
            (["--batch", "2,2"], "asked for twice"),
            (["--kv-len", "abc"], "not an integer"),
            (["--suite=1"], "takes no value")]:
        out = os.path.join(tmp, "bad")
        p = mlab("gen", *args, "-o", out)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and words in lines[0] and not os.path.exists(out),
              f"gen {' '.join(args)} exits 2 with one line ('{words}'), writes nothing",
              f"exit {p.returncode}: {p.stderr}")
    return finish("test_names", tmp)


if __name__ == "__main__":
    sys.exit(main())
