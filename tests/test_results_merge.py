#!/usr/bin/env python3
"""test_results_merge.py: `mlabench merge A B ... -o ALL` joins one sweep.

Pins:
  - two slices (disjoint cases, hosts nodeA/nodeB, GPUs GPU-A/GPU-B, one
    commit) merge into one file of 18 rows and 6 inputs, every row keeping
    its host and gpu_uuid; the merged environment has host "" (they differ),
    the later utc_time; no temporary is left beside it;
  - compare, export, report and plot work on the merged file; compare of a slice
    against the merged file pairs that slice's 9 rows;
  - a file of another commit is refused with exit 10, one line naming the
    file and git_commit, and no output file is written; so is a row found in
    two files; two builds of other kernel_knobs are refused with the one word
    that differs ("wg_mx_kb=3 -> wg_mx_kb=2 (20 words the same)"), not the
    whole strings; -o missing is a usage error (exit 2);
  - a version-1 file (papers/reports/h200-2026-11-30c/h200_suite_v6.h5) merges
    alone: its GPU rows get gpu_uuid and host from its environment, its CPU
    rows the host only (device_index -1: they ran on no GPU), and the result
    is version 2.
Usage: test_results_merge.py PATH/TO/results_tool   (MLAB_BIN = mlabench, MLAB_SRC = source)
Exit 0 pass, 1 fail, 77 skip (no h5py).
"""
import csv
import io
import os
import shutil
import subprocess
import sys

from mlabtest import check, finish, programs, scratch

try:
    import h5py
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)


def main():
    tool, mlab = programs()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    tmp = scratch("merge")

    def write(name, *args):
        path = os.path.join(tmp, name)
        subprocess.run([tool, "write", path, *args], check=True)
        return path

    def run(*args):
        p = subprocess.run([mlab, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    a = write("a.h5", "--seed", "1", "--host", "nodeA", "--uuid", "GPU-A", "--commit", "c0ffee",
              "--time", "2026-01-01T00:00:00Z")
    b = write("b.h5", "--seed", "2", "--host", "nodeB", "--uuid", "GPU-B", "--commit", "c0ffee",
              "--case-suffix", "_b", "--time", "2026-01-02T00:00:00Z")
    other = write("other.h5", "--seed", "3", "--commit", "deadbeef", "--case-suffix", "_c")
    out = os.path.join(tmp, "all.h5")
    rc, o, e = run("merge", a, b, "-o", out)
    check(rc == 0 and "18 rows from 2 files" in o, f"merge: exit {rc}\n{o}{e}")
    with h5py.File(out, "r") as f:
        rows = f["rows"][...]
        check(len(rows) == 18 and len(f["inputs"]) == 6, f"{len(rows)} rows, {len(f['inputs'])} inputs")
        hosts = {(r["case_name"].decode(), r["host"].decode(), r["gpu_uuid"].decode()) for r in rows}
        check(all((h, u) == (("nodeB", "GPU-B") if c.endswith("_b") else ("nodeA", "GPU-A"))
                  for c, h, u in hosts), f"rows lost their device/host: {sorted(hosts)}")
        check(f.attrs["host"] == "" and f.attrs["gpu_uuid"] == ""
              and f.attrs["utc_time"] == "2026-01-02T00:00:00Z" and f.attrs["git_commit"] == "c0ffee",
              f"merged environment: host {f.attrs['host']!r} time {f.attrs['utc_time']!r}")
    check(not [n for n in os.listdir(tmp) if ".tmp." in n], "a temporary was left")

    rc, o, e = run("compare", out, out)
    check(rc == 0 and "18 pairs: 18 same" in o, f"compare merged: exit {rc}\n{o}{e}")
    rc, o, e = run("compare", a, out)
    check(rc == 0 and "9 pairs" in o and "only in NEW (9)" in o, f"compare slice: exit {rc}\n{o}{e}")
    rc, o, e = run("export", out)
    check(rc == 0 and len(list(csv.DictReader(io.StringIO(o)))) == 18, f"export merged: {rc}")
    rc, o, e = run("report", out, "-o", os.path.join(tmp, "r.md"))
    check(rc == 0, f"report merged: exit {rc}\n{e}")

    if shutil.which("gnuplot"):
        os.environ.setdefault("MLAB_PLOTS_DIR", os.path.join(src, "plots"))
        rc, o, e = run("plot", out, "--out", os.path.join(tmp, "figs"))
        check(rc == 0 and os.path.exists(os.path.join(tmp, "figs", "all.latency.png")),
              f"plot merged: exit {rc}\n{e}")

    bad = os.path.join(tmp, "bad.h5")
    rc, o, e = run("merge", a, other, "-o", bad)
    check(rc == 10 and len(e.strip().splitlines()) == 1 and "git_commit" in e and "other.h5" in e
          and not os.path.exists(bad), f"other commit: exit {rc}, want 10\n{e}")
    # two builds of other knobs: the line names the word that differs, not two 400-character strings
    words = " ".join(f"k{i}=v{i}" for i in range(20))
    kb3 = write("kb3.h5", "--seed", "1", "--knobs", words + " wg_mx_kb=3", "--case-suffix", "_kb3")
    kb2 = write("kb2.h5", "--seed", "2", "--knobs", words + " wg_mx_kb=2", "--case-suffix", "_kb2")
    rc, o, e = run("merge", kb3, kb2, "-o", bad)
    check(rc == 10 and len(e.strip().splitlines()) == 1 and not os.path.exists(bad)
          and "kernel_knobs differs from" in e and "wg_mx_kb=3 -> wg_mx_kb=2 (20 words the same)" in e
          and "k3=v3" not in e, f"other knobs: exit {rc}, want 10 naming the word\n{e}")
    rc, o, e = run("merge", a, a, "-o", bad)
    check(rc == 10 and "is also in" in e and not os.path.exists(bad), f"duplicate rows: exit {rc}\n{e}")
    rc, o, e = run("merge", a, b)
    check(rc == 2 and "-o" in e, f"no -o: exit {rc}\n{e}")

    v1 = os.path.join(src, "papers", "reports", "h200-2026-11-30c", "h200_suite_v6.h5")
    v2 = os.path.join(tmp, "v2.h5")
    rc, o, e = run("merge", v1, "--output=" + v2)
    check(rc == 0, f"merge v1: exit {rc}\n{e}")
    if rc == 0:
        with h5py.File(v1, "r") as f1, h5py.File(v2, "r") as f2:
            check(int(f2.attrs["format_version"]) == 2, "merged v1 is not version 2")
            rows2 = f2["rows"][...]
            gpu = [r for r in rows2 if r["kind"] != b"cpu"]
            cpu = [r for r in rows2 if r["kind"] == b"cpu"]
            check(gpu and all(r["gpu_uuid"].decode() == f1.attrs["gpu_uuid"] for r in gpu)
                  and all(r["host"].decode() == f1.attrs["host"] for r in rows2),
                  "v1 rows did not get gpu_uuid (GPU rows) and host (all) from the environment")
            # a CPU row ran on no GPU: merge keeps it so (it once took the file's GPU)
            check(cpu and all(r["gpu_uuid"] == b"" and r["device_index"] == -1 for r in cpu),
                  f"v1 CPU rows must keep no GPU (device_index -1): "
                  f"{sorted({(r['gpu_uuid'], int(r['device_index'])) for r in cpu})}")
    return finish("test_results_merge", tmp)


if __name__ == "__main__":
    sys.exit(main())
