#!/usr/bin/env python3
"""test_results_plot.py: `mlabench plot` renders valid PNG and SVG figures.

Pins:
  - without gnuplot on PATH, plot exits 4 with a one-line reason, and with
    --if-available prints "gnuplot not found: plots skipped" and exits 0
    (checked first: needs no gnuplot);
  - with gnuplot: --format both --history writes latency, bandwidth, error
    and history figures named after the input (r.latency.png, ...); each PNG
    starts with the 8-byte PNG signature and an IHDR chunk of the scripts'
    size (1100 x 650); each SVG parses as XML with an <svg> root and names
    the GPU, runtime and commit in its text; CPU reference rows (cpu_ref_*)
    appear in the error figure only; gnuplot prints no warning; the plot
    data files are removed afterwards, and kept with --keep-data;
  - a --cases filter that matches nothing is a usage error (exit 2).
Usage: test_results_plot.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no gnuplot).
"""
import glob
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

from mlabtest import FAILURES, check, finish, programs, scratch


def main():
    tool, mlab = programs()
    mlab = os.path.abspath(mlab)
    if os.environ.get("MLAB_SRC"):
        os.environ.setdefault("MLAB_PLOTS_DIR", os.path.join(os.environ["MLAB_SRC"], "plots"))
    tmp = scratch("plot")
    r = os.path.join(tmp, "r.h5")
    older = os.path.join(tmp, "older.h5")
    subprocess.run([tool, "write", older, "--seed", "1", "--runtime", "CUDA 12.8",
                    "--time", "2026-01-05T10:00:00Z"], check=True)
    subprocess.run([tool, "write", r, "--seed", "2", "--runtime", "CUDA 13.0",
                    "--time", "2026-02-07T10:00:00Z", "--cpu-rows", "1"], check=True)

    # no gnuplot on PATH
    empty = os.path.join(tmp, "empty-bin")
    os.mkdir(empty)
    env = dict(os.environ, PATH=empty)
    p = subprocess.run([mlab, "plot", r, "--out", tmp], capture_output=True, text=True, env=env)
    check(p.returncode == 4 and "gnuplot not found" in p.stderr and len(p.stderr.splitlines()) == 1,
          f"no gnuplot: exit {p.returncode}, want 4 and one line\n{p.stderr}")
    p = subprocess.run([mlab, "plot", r, "--if-available"], capture_output=True, text=True, env=env)
    check(p.returncode == 0 and "gnuplot not found: plots skipped" in p.stdout,
          f"--if-available: exit {p.returncode}\n{p.stdout}{p.stderr}")

    if not shutil.which("gnuplot"):
        print("SKIP: gnuplot not installed (the no-gnuplot paths passed)" if not FAILURES else
              "\n".join(FAILURES))
        return 1 if FAILURES else 77

    out = os.path.join(tmp, "fig")
    p = subprocess.run([mlab, "plot", r, "--out", out, "--format", "both", "--history", older,
                        "--variants", "fp8,bf16"], capture_output=True, text=True)
    check(p.returncode == 0, f"plot: exit {p.returncode}\n{p.stdout}{p.stderr}")
    check("warning" not in p.stderr, f"gnuplot warned:\n{p.stderr}")
    for kind in ["latency", "bandwidth", "error", "history"]:
        png = os.path.join(out, f"r.{kind}.png")
        svg = os.path.join(out, f"r.{kind}.svg")
        check(os.path.exists(png) and os.path.exists(svg), f"{kind}: figures missing in {out}")
        if os.path.exists(png):
            with open(png, "rb") as f:
                head = f.read(24)
            check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{png}: no PNG signature")
            check(head[12:16] == b"IHDR", f"{png}: first chunk is not IHDR")
            w, h = struct.unpack(">II", head[16:24])
            check((w, h) == (1100, 650), f"{png}: {w}x{h}, want 1100x650")
        if os.path.exists(svg):
            try:
                root = ET.parse(svg).getroot()
                check(root.tag.endswith("svg"), f"{svg}: root is {root.tag}")
                text = open(svg, encoding="utf-8").read()
                check("NVIDIA H200" in text and "commit" in text, f"{svg}: title lacks GPU/commit")
                # CPU reference rows: in the error figure only
                check(("cpu_ref_fp8" in text) == (kind == "error"),
                      f"{svg}: cpu_ref_fp8 {'missing' if kind == 'error' else 'drawn'}")
                if kind != "history":
                    check("CUDA 13.0" in text, f"{svg}: title lacks the runtime")
                else:
                    check("CUDA 12.8" in text and "2026-01-05" in text,
                          f"{svg}: run labels lack runtime/date")
            except ET.ParseError as e:
                check(False, f"{svg}: not XML: {e}")
    check(glob.glob(os.path.join(out, "*.csv")) == [], "plot data files were not removed")
    check(glob.glob(os.path.join(out, "*.tmp.*")) == [], "temporaries left behind")

    p = subprocess.run([mlab, "plot", r, "--out", out, "--keep-data"], capture_output=True, text=True)
    check(p.returncode == 0 and os.path.exists(os.path.join(out, "r.plot.csv")),
          f"--keep-data: {p.stderr}")
    p = subprocess.run([mlab, "plot", r, "--out", out, "--history", older, "--cases", "nope"],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "no timed" in p.stderr, f"empty history: exit {p.returncode}\n{p.stderr}")

    return finish("test_results_plot", tmp)


if __name__ == "__main__":
    sys.exit(main())
