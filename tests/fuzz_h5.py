#!/usr/bin/env python3
"""fuzz_h5.py: a bounded mutation fuzz of mlabench's case reader (`check`)
or results reader (`export`).

From a fixed seed it writes one small valid file (a case from `mlabench gen`,
or a results file from tests/results_tool), finds its HDF5 metadata (every
byte outside the datasets' raw data, from h5py), and for each run flips 1-8
random metadata bytes (random values, bit flips, 0x00/0xFF, or a small
integer nudge), writes the mutant and runs mlabench on it. A run fails when
mlabench's own process
  - dies of a signal,
  - does not finish within --timeout seconds (a hang),
  - prints a sanitizer report (AddressSanitizer, LeakSanitizer, UBSan's
    "runtime error:"),
  - exits with a code other than 0, 3 (bad input) or 4 (I/O),
  - or prints more than one line on stderr.
A crash or a hang of libhdf5 inside mlabench's contained child is not a
failure when the parent reports it (exit 3, one line): those are counted as
"contained". Failing mutants are kept in --keep (default: a temp folder).

  fuzz_h5.py case|results --runs N [--seed S] [--timeout T] [--keep DIR]
Environment: MLAB_BIN (mlabench), MLAB_BUILD (for tests/results_tool).
Exit 0 pass, 1 fail, 77 skip (no h5py).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import h5py
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

SANITIZER = ("AddressSanitizer", "LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")


def data_ranges(path):
    """[start, end) of every dataset's raw data (contiguous layout)."""
    out = []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                off = obj.id.get_offset()
                if off is not None and obj.id.get_storage_size():
                    out.append((off, off + obj.id.get_storage_size()))
        f.visititems(visit)
    return sorted(out)


def metadata_offsets(path):
    size = os.path.getsize(path)
    ranges = data_ranges(path)
    offs, pos = [], 0
    for a, b in ranges:
        offs.extend(range(pos, min(a, size)))
        pos = max(pos, b)
    offs.extend(range(pos, size))
    return offs


def mutate(data, offs, rng):
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3, 4, 8))):
        i = rng.choice(offs)
        how = rng.randrange(4)
        if how == 0:
            b[i] = rng.randrange(256)
        elif how == 1:
            b[i] ^= 1 << rng.randrange(8)
        elif how == 2:
            b[i] = rng.choice((0x00, 0xFF))
        else:
            b[i] = (b[i] + rng.choice((-2, -1, 1, 2, 16))) & 0xFF
    return bytes(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("target", choices=("case", "results"))
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--child-timeout", default="3",
                    help="MLAB_H5_TIMEOUT for the contained child (seconds)")
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()

    mlab = os.environ.get("MLAB_BIN", "build/mlabench")
    build = os.environ.get("MLAB_BUILD", "build")
    work = tempfile.mkdtemp(prefix=f"mlab_fuzz_{a.target}_")
    keep = a.keep or os.path.join(work, "failures")
    os.makedirs(keep, exist_ok=True)
    seed_file = os.path.join(work, "seed.h5")
    if a.target == "case":
        subprocess.run([mlab, "gen", "--batch", "2", "--kv-len", "16", "-o", seed_file],
                       check=True, capture_output=True)
        cmd = [mlab, "check"]
    else:
        tool = os.path.join(build, "tests", "results_tool")
        subprocess.run([tool, "write", seed_file, "--seed", "1", "--samples", "20"],
                       check=True, capture_output=True)
        cmd = [mlab, "export"]
    data = open(seed_file, "rb").read()
    offs = metadata_offsets(seed_file)
    rng = random.Random(a.seed)
    env = dict(os.environ, MLAB_H5_TIMEOUT=a.child_timeout)
    counts = {"runs": 0, "ok": 0, "refused": 0, "contained_crash": 0, "contained_hang": 0,
              "signal": 0, "hang": 0, "sanitizer": 0, "bad_exit": 0, "multi_line": 0}
    failures = []
    t0 = time.time()
    mutant = os.path.join(work, "m.h5")
    for run in range(a.runs):
        m = mutate(data, offs, rng)
        with open(mutant, "wb") as f:
            f.write(m)
        counts["runs"] += 1
        kind = None
        try:
            p = subprocess.run(cmd + [mutant], capture_output=True, text=True, env=env,
                               timeout=a.timeout, errors="replace")
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err, kind = None, "", "hang"
        if kind is None:
            if rc < 0:
                kind = "signal"
            elif any(s in err for s in SANITIZER):
                kind = "sanitizer"
            elif rc not in (0, 3, 4):
                kind = "bad_exit"
            elif len(err.strip().splitlines()) > 1:
                kind = "multi_line"
        if kind:
            counts[kind] += 1
            name = os.path.join(keep, f"{a.target}_{a.seed}_{run}_{kind}.h5")
            shutil.copy(mutant, name)
            failures.append(f"run {run}: {kind} (rc {rc}): {name}: {err.strip()[:300]!r}")
        elif rc == 0:
            counts["ok"] += 1
        else:
            counts["refused"] += 1
            if "crashed reading it" in err:
                counts["contained_crash"] += 1
            elif "did not finish" in err:
                counts["contained_hang"] += 1
    dt = time.time() - t0
    print(f"fuzz {a.target}: seed {a.seed}, {counts['runs']} executions in {dt:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in counts.items() if k != "runs"))
    for f in failures[:20]:
        print("FAIL:", f)
    if failures:
        print(f"failing mutants kept in {keep}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
