#!/usr/bin/env python3
"""test_sweep_ctest.py: one host, several GPUs, through CTest's resource
allocation (issue 14.2), on the CPU with a fake resource spec.

Pins:
  - harness/sweep/gpus_json.sh N writes a resource spec CTest accepts, with
    ids 0..N-1, and refuses a count that is not a number (exit 2)
  - harness/sweep/ctest_sweep.sh writes a CTest project of N slice tests, each
    requiring one GPU; `ctest -j2 --resource-spec-file` (2 fake GPUs) runs
    them, each slice is given a GPU id of the spec (read from
    CTEST_RESOURCE_GROUP_0_GPUS) and passes it as --device, and the two GPUs
    are both used
  - every slice writes its own results file; together they hold every case of
    the sweep exactly once (a CPU row for each CPU reference)
  - with a spec of one GPU, -j2 still gives every slice device 0
  - slices of case files given by relative paths find them (the tests run
    where ctest_sweep.sh ran)
  - ctest_sweep.sh refuses a sweep `run` would refuse (exit 2, no project),
    and a user's -o (the slices' own); it prints the spec's path absolute
  - slurm_sweep.sbatch makes an array's tasks slices 0 .. N-1 for a first
    id or step other than 0 and 1
  - gpus_json.sh counts a visible-devices list up to its first negative
    entry; set but empty, or -1, is no GPU (exit 77)
Environment: MLAB_BIN, MLAB_SRC, MLAB_CTEST (the ctest program).
Exit 0 pass, 1 fail, 77 skip.
"""
import csv
import io
import os
import re
import sys
import tempfile

BIN, SRC = os.environ.get("MLAB_BIN", ""), os.environ.get("MLAB_SRC", "")
CTEST = os.environ.get("MLAB_CTEST", "ctest")
if not BIN or not os.path.isfile(BIN):
    print(f"SKIP: MLAB_BIN ('{BIN}') is not a file")
    sys.exit(77)
SWEEP = os.path.join(SRC, "harness", "sweep")
from mlabtest import run, say as check, finish  # noqa: E402


def nrefs():
    """the CPU references a run computes (harness/run_rows.h MLAB_RUN_NREFS): a CPU row each"""
    with open(os.path.join(SRC, "harness", "run_rows.h")) as f:
        return int(re.search(r"#define MLAB_RUN_NREFS (\d+)", f.read()).group(1))


def sh(*args, **kw):
    return run(args, **kw)


def main():
    NREFS = nrefs()
    tmp = tempfile.mkdtemp(prefix="mlab_ctest_")
    spec2, spec1 = os.path.join(tmp, "gpus2.json"), os.path.join(tmp, "gpus1.json")
    for n, path in ((2, spec2), (1, spec1)):
        p = sh(os.path.join(SWEEP, "gpus_json.sh"), str(n))
        open(path, "w").write(p.stdout)
        check(p.returncode == 0 and len(re.findall(r'"id": "\d+"', p.stdout)) == n,
              f"gpus_json.sh {n} lists {n} GPU(s)", p.stdout + p.stderr)
    p = sh(os.path.join(SWEEP, "gpus_json.sh"), "two")
    check(p.returncode == 2, "gpus_json.sh refuses a count that is not a number", p.stderr)

    sweep = ["--cpu-only", "--batch", "1,2,3", "--kv-len", "16,32", "--quiet"]
    want = sorted(l.split()[0] for l in sh(BIN, "run", "--list", *sweep).stdout.splitlines()
                  if "(in memory)" in l)
    for spec, ngpu in ((spec2, 2), (spec1, 1)):
        proj = os.path.join(tmp, f"proj{ngpu}")
        p = sh(os.path.join(SWEEP, "ctest_sweep.sh"), proj, "4", BIN, *sweep)
        check(p.returncode == 0 and os.path.isfile(os.path.join(proj, "CTestTestfile.cmake")),
              "ctest_sweep.sh writes the CTest project", p.stdout + p.stderr)
        r = sh(CTEST, "--test-dir", proj, "-j2", "--resource-spec-file", spec, "-V")
        devs = [int(d) for d in re.findall(r"slice \d+/4: device (\d+)", r.stdout)]
        check(r.returncode == 0 and "100% tests passed" in r.stdout and len(devs) == 4,
              f"ctest -j2 with {ngpu} GPU(s) in the spec runs the 4 slices", r.stdout + r.stderr)
        if ngpu == 2:
            check(sorted(set(devs)) == [0, 1], "each slice gets a GPU of the spec, and both GPUs are used",
                  str(devs))
        else:
            check(devs and set(devs) == {0}, "with one GPU in the spec every slice gets device 0", str(devs))
        names, ok = [], True
        for k in range(4):
            f = os.path.join(proj, f"slice_{k}.h5")
            e = sh(BIN, "export", f)
            rows = list(csv.DictReader(io.StringIO(e.stdout)))
            ok &= e.returncode == 0 and len(rows) > 0 and len(rows) % NREFS == 0
            names += sorted({x["case_name"] for x in rows})
        check(ok and sorted(names) == want,
              f"the slices' results files ({ngpu} GPU) hold every case once, {NREFS} CPU rows each",
              f"{sorted(names)} vs {want}")
    # slices of case files named relative to where ctest_sweep.sh ran
    os.makedirs(os.path.join(tmp, "cases"))
    files = []
    for b in (1, 2, 3):
        sh(BIN, "gen", "--batch", str(b), "--kv-len", "8", "-o", os.path.join(tmp, "cases", f"c{b}.h5"))
        files.append(f"cases/c{b}.h5")
    p = sh(os.path.join(SWEEP, "ctest_sweep.sh"), "projf", "2", BIN, "--cpu-only", *files, cwd=tmp)
    r = sh(CTEST, "--test-dir", os.path.join(tmp, "projf"), "-j2", "--resource-spec-file", spec2)
    names = []
    for k in range(2):
        e = sh(BIN, "export", os.path.join(tmp, "projf", f"slice_{k}.h5"))
        names += sorted({x["case_name"] for x in csv.DictReader(io.StringIO(e.stdout))})
    check(p.returncode == 0 and r.returncode == 0 and sorted(names) == ["b1_kv8_s1", "b2_kv8_s1", "b3_kv8_s1"],
          "slices of case files given by relative paths run from where ctest_sweep.sh ran",
          p.stderr + r.stdout + str(names))
    p = sh(os.path.join(SWEEP, "ctest_sweep.sh"), os.path.join(tmp, "bad"), "2", BIN,
           "--batch", "2", "--kv-lens", "1,2,3")
    check(p.returncode == 2 and not os.path.exists(os.path.join(tmp, "bad")),
          "ctest_sweep.sh refuses a sweep run refuses, writes no project", p.stderr)
    # a slice's own options are its: a user's -o (every slice would have
    # written that one file, each over the last, all passing) is refused
    p = sh(os.path.join(SWEEP, "ctest_sweep.sh"), os.path.join(tmp, "bad_o"), "2", BIN, "--cpu-only",
           "--batch", "1,2", "--kv-len", "8", "-o", os.path.join(tmp, "mine.h5"))
    check(p.returncode == 2 and "given twice" in p.stderr and not os.path.exists(os.path.join(tmp, "bad_o")),
          "ctest_sweep.sh refuses a user's -o (the slices' own), writes no project", p.stderr)
    # the command it prints names the spec by an absolute path (CTest 3.25
    # reads a relative one from inside --test-dir)
    p = sh(os.path.join(SWEEP, "ctest_sweep.sh"), "projp", "2", BIN, "--cpu-only", *files, cwd=tmp)
    m = re.search(r"--resource-spec-file (\S+)", p.stdout)
    check(p.returncode == 0 and m and os.path.isabs(m.group(1)),
          "ctest_sweep.sh prints the resource spec's path absolute", p.stdout)
    # a Slurm array's tasks as slices 0 .. N-1 whatever its first id and step
    # (--array=1-3 ran slices 1, 2 and a refused 3/3, never 0)
    sl = os.path.join(tmp, "slurm")
    for ids, mn, step in (((1, 2, 3), 1, 1), ((0, 2, 4), 0, 2)):
        for i in ids:
            r = run(["sh", os.path.join(SWEEP, "slurm_sweep.sbatch"), sl, BIN, *sweep],
                    env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(i), SLURM_ARRAY_TASK_COUNT="3",
                             SLURM_ARRAY_TASK_MIN=str(mn), SLURM_ARRAY_TASK_STEP=str(step)))
            check(r.returncode == 0, f"slurm_sweep.sbatch task {i} of --array={mn}-{ids[-1]}:{step}", r.stdout + r.stderr)
        got = sorted(os.listdir(sl))
        check(got == ["slice_0.h5", "slice_0.log", "slice_1.h5", "slice_1.log", "slice_2.h5", "slice_2.log"],
              f"--array={mn}-{ids[-1]}:{step}: slices 0, 1, 2", str(got))
        for f in got:
            os.remove(os.path.join(sl, f))
    # the visible-devices lists: set but empty, or -1 first, hide every GPU
    for val, want in (("", 77), ("-1", 77), ("0,1,-1,3", 0)):
        p = run([os.path.join(SWEEP, "gpus_json.sh")], env=dict(os.environ, CUDA_VISIBLE_DEVICES=val))
        n = len(re.findall(r'"id": "\d+"', p.stdout))
        check(p.returncode == want and (want != 0 or n == 2),
              f"gpus_json.sh with CUDA_VISIBLE_DEVICES={val!r}: exit {want}" + (", 2 GPUs" if want == 0 else ""),
              f"exit {p.returncode}: {p.stdout}{p.stderr}")
    return finish("test_sweep_ctest", tmp)


if __name__ == "__main__":
    sys.exit(main())
