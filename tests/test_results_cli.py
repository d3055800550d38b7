#!/usr/bin/env python3
"""test_results_cli.py: the results subcommands parse options with getopt_long.

Pins:
  - "--opt=value" and "--opt value" give the same output (export -o/--output,
    compare --threshold=, report --output=);
  - options may come after the files;
  - an unknown option and an option without its value are one-line usage
    errors (exit 2) naming the option;
  - the strict number parsers stay: --threshold=abc and --threshold=1e999x
    are refused (exit 2).
Usage: test_results_cli.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
"""
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def main():
    tool, mlab = programs()
    tmp = scratch("cli")
    a = os.path.join(tmp, "a.h5")
    subprocess.run([tool, "write", a, "--seed", "1"], check=True)

    def run(*args):
        p = subprocess.run([mlab, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    c1, c2 = os.path.join(tmp, "1.csv"), os.path.join(tmp, "2.csv")
    rc1, _, e1 = run("export", "--output=" + c1, a)
    rc2, _, e2 = run("export", a, "-o", c2)
    check(rc1 == 0 and rc2 == 0, f"export --output= / -o: exit {rc1} {rc2}\n{e1}{e2}")
    if rc1 == 0 and rc2 == 0:
        check(open(c1).read() == open(c2).read(), "--output=FILE and -o FILE differ")

    rc, o1, _ = run("compare", a, a, "--threshold=0.05")
    rc_b, o2, _ = run("compare", "--threshold", "0.05", a, a)
    check(rc == rc_b and "threshold 5%" in o1 and o1 == o2,
          f"--threshold=0.05 and --threshold 0.05 differ\n{o1}\n{o2}")

    for args, needle in [(["export", "--bogus", a], "unknown option '--bogus'"),
                         (["report", a, "-x"], "unknown option '-x'"),
                         (["export", a, "-o"], "-o needs a value"),
                         (["compare", a, a, "--threshold=abc"], "'abc' is not a number"),
                         (["compare", a, a, "--threshold=1e999x"], "is not a number")]:
        rc, out, err = run(*args)
        lines = [l for l in err.splitlines() if l.startswith("mlabench")]
        check(rc == 2 and needle in err and len(lines) == 1,
              f"{' '.join(args[:1] + args[2:])}: exit {rc}, want 2 and one line with {needle!r}\n{err}")
    return finish("test_results_cli", tmp)


if __name__ == "__main__":
    sys.exit(main())
