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
  - ctest_sweep.sh refuses a sweep `run` would refuse (exit 2, no project)
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
    return finish("test_sweep_ctest", tmp)


if __name__ == "__main__":
    sys.exit(main())
