#!/usr/bin/env python3
"""test_results_compare.py: `mlabench compare OLD NEW` verdicts and exit codes.

Pins (synthetic files from tests/results_tool, 9 rows, fixed seeds):
  - two runs drawn from one distribution (30 samples, 2% noise): every pair
    "same", no slower/faster, exit 0;
  - a 10% slowdown with 30 samples: every pair "slower", exit 6; the other
    way round "faster", exit 0; the geometric-mean row says about +10%;
  - 5 samples a side: no p-value ("n/a (need >= 9 samples)"), "unclear", exit 0;
  - different GPU models: refused with exit 7 naming both; --force compares
    (warning printed, exit 0);
  - a new runtime is listed as an environment difference
    ("runtime_version: CUDA 12.8 -> CUDA 13.0");
  - accuracy drift (rel_rms x5) and a pass -> fail flip: "accuracy-regression",
    exit 6, even though the times are the same;
  - rows present in one file only are listed; CPU reference rows (cpu_ref_*)
    get no timing verdict ("-", "not compared");
  - --help documents exit codes 6 and 7; a missing file exits 4.
Usage: test_results_compare.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import os
import re
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def main():
    tool, mlab = programs()
    tmp = scratch("compare")

    def write(name, *args):
        path = os.path.join(tmp, name)
        subprocess.run([tool, "write", path, *args], check=True)
        return path

    def compare(*args):
        p = subprocess.run([mlab, "compare", *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def verdict_lines(out):
        return [l for l in out.splitlines() if re.match(r"^b\d+_kv\d+_s\d+\s", l)]

    a = write("a.h5", "--seed", "1")
    b = write("b.h5", "--seed", "2")
    slow = write("slow.h5", "--seed", "3", "--scale", "1.10")

    rc, out, err = compare(a, b)
    lines = verdict_lines(out)
    check(rc == 0, f"one distribution: exit {rc}, want 0\n{out}{err}")
    check(len(lines) == 9, f"one distribution: {len(lines)} pair lines, want 9\n{out}")
    check(all(l.rstrip().split("  ")[-1].startswith("same") for l in lines),
          f"one distribution: not all 'same'\n{out}")
    check("9 pairs: 9 same, 0 faster, 0 slower, 0 unclear" in out,
          f"one distribution: summary line wrong\n{out}")

    rc, out, err = compare(a, slow)
    lines = verdict_lines(out)
    check(rc == 6, f"10% slowdown: exit {rc}, want 6\n{out}{err}")
    check(len(lines) == 9 and all("slower" in l for l in lines), f"10% slowdown: not all slower\n{out}")
    m = re.search(r"^geomean\s.*?([+-]\d+\.\d+)%", out, re.M)
    check(m and 8.0 < float(m.group(1)) < 12.0, f"geomean row missing or not ~+10%\n{out}")

    rc, out, err = compare(slow, a)
    check(rc == 0 and all("faster" in l for l in verdict_lines(out)),
          f"10% speedup: exit {rc}, want 0 and all faster\n{out}{err}")

    few_a = write("few_a.h5", "--seed", "4", "--samples", "5")
    few_b = write("few_b.h5", "--seed", "5", "--samples", "5", "--scale", "1.10")
    rc, out, err = compare(few_a, few_b)
    lines = verdict_lines(out)
    check(rc == 0, f"5 samples: exit {rc}, want 0 (no verdict is no regression)\n{out}{err}")
    check(lines and all("n/a (need >= 9 samples)" in l and l.rstrip().endswith("unclear")
                        for l in lines), f"5 samples: want n/a + unclear\n{out}")

    amd = write("amd.h5", "--seed", "2", "--gpu", "AMD Instinct MI355X")
    rc, out, err = compare(a, amd)
    check(rc == 7, f"different GPUs: exit {rc}, want 7\n{out}{err}")
    check("NVIDIA H200" in err and "AMD Instinct MI355X" in err and "--force" in err,
          f"different GPUs: message should name both and --force\n{err}")
    rc, out, err = compare(a, amd, "--force")
    check(rc == 0 and "warning: different GPU models" in out,
          f"--force: exit {rc}, want 0 with a warning\n{out}{err}")

    cu13 = write("cu13.h5", "--seed", "2", "--runtime", "CUDA 13.0")
    rc, out, err = compare(a, cu13)
    check(rc == 0 and "runtime_version: CUDA 12.8 -> CUDA 13.0" in out,
          f"runtime difference not listed\n{out}{err}")

    drift = write("drift.h5", "--seed", "1", "--rel-rms", "5e-3")
    rc, out, err = compare(a, drift)
    check(rc == 6 and out.count("accuracy-regression") >= 9 and "kernel rel_rms" in out,
          f"rel_rms x5: exit {rc}, want 6 and accuracy-regression\n{out}{err}")
    fail = write("fail.h5", "--seed", "1", "--valid", "0")
    rc, out, err = compare(a, fail)
    check(rc == 6 and "accuracy-regression" in out and "fails now" in out,
          f"pass -> fail: exit {rc}\n{out}{err}")
    rc, out, err = compare(drift, a)
    check(rc == 0 and "accuracy-regression" not in out, f"smaller errors are no regression\n{out}")

    two = write("two.h5", "--seed", "2", "--cases", "2")
    rc, out, err = compare(a, two)
    check("only in OLD (3): b256_kv8192_s9826/bf16" in out, f"rows only in OLD not listed\n{out}")
    rc, out, err = compare(two, a)
    check("only in NEW (3): b256_kv8192_s9826/bf16" in out, f"rows only in NEW not listed\n{out}")

    # CPU reference rows are listed, checked for accuracy, never timed against
    cpu_a = write("cpu_a.h5", "--seed", "1", "--cpu-rows", "1")
    cpu_b = write("cpu_b.h5", "--seed", "2", "--cpu-rows", "1")
    rc, out, err = compare(cpu_a, cpu_b)
    cpu_lines = [l for l in out.splitlines() if "cpu_ref_fp8" in l]
    check(rc == 0 and len(cpu_lines) == 3 and all(l.rstrip().endswith("-") for l in cpu_lines)
          and "9 same, 0 faster, 0 slower, 0 unclear, 3 not compared" in out,
          f"CPU reference rows: want '-' and 'not compared'\n{out}{err}")

    p = subprocess.run([mlab, "compare", "--help"], capture_output=True, text=True)
    check(p.returncode == 0 and "exit codes" in p.stdout and "6 a pair is slower" in p.stdout
          and "7 refused" in p.stdout, f"--help must document exit codes\n{p.stdout}")
    rc, out, err = compare(a, os.path.join(tmp, "missing.h5"))
    check(rc == 4 and "missing.h5" in err, f"missing file: exit {rc}, want 4\n{err}")
    rc, out, err = compare(a)
    check(rc == 2, f"one file: exit {rc}, want 2")

    return finish("test_results_compare", tmp)


if __name__ == "__main__":
    sys.exit(main())
