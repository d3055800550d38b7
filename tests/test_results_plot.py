#!/usr/bin/env python3
"""test_results_plot.py: `mlabench plot` and the gnuplot scripts of plots/.

Pins:
  - without gnuplot on PATH, plot exits 4 with a one-line reason, and with
    --if-available prints "gnuplot not found: plots skipped" and exits 0; a
    bad file is refused (exit 3) with gnuplot or without
    (checked first: needs no gnuplot);
  - with gnuplot: --format both writes latency, bandwidth and error figures
    named after the input (r.latency.png, ...); each PNG starts with the PNG
    signature and an IHDR chunk of 1100 x 650; each SVG parses as XML and
    names the GPU, runtime and commit; CPU reference rows (kind cpu) appear
    in the error figure only; gnuplot prints no warning; the data file is
    removed afterwards and kept with --keep-data;
  - one colour per variant name: fp8 is rgb(214,39,40) and bf16
    rgb(31,119,180) in every figure, also in a file holding fp8 alone (where
    no bf16 colour appears);
  - cases are ordered by bytes: the x labels run b4 < b64 < b256 left to right
    (not alphabetically);
  - the floor: the latency figure says "floor" in its key;
  - a GPU name starting with a quote (and holding one) draws fine and is in
    the title;
  - each script runs by hand with one argument, the kept CSV
    (gnuplot -c plots/latency.gp r.csv writes r.latency.png), and without
    one says its usage and exits 2;
  - a CPU-only run (the quickstart without a GPU) draws its error figure only,
    without gnuplot warnings;
  - plot --history points to `mlabench history` (exit 2).
Usage: test_results_plot.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no gnuplot).
"""
import csv
import glob
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

from mlabtest import FAILURES, check, finish, programs, scratch

FP8, BF16 = "rgb(214,  39,  40)", "rgb( 31, 119, 180)"


def xlabels(svg):
    """The x tick labels of an SVG figure, left to right (rotated text groups)."""
    text = open(svg, encoding="utf-8").read()
    hits = re.findall(r'translate\(([\d.]+),[\d.]+\) rotate\(30\)[^>]*>\s*<text>([^<]+)</text>', text)
    return [name for _, name in sorted(hits, key=lambda h: float(h[0]))]


def main():
    tool, mlab = programs()
    mlab = os.path.abspath(mlab)
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
    plots = os.path.join(src, "plots")
    os.environ.setdefault("MLAB_PLOTS_DIR", plots)
    tmp = scratch("plot")
    r = os.path.join(tmp, "r.h5")
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
    # a bad file is exit 3 with gnuplot or without (read before gnuplot is looked for)
    bad = os.path.join(tmp, "bad.h5")
    open(bad, "wb").write(b"not HDF5\n")
    for extra in ([], ["--if-available"]):
        p = subprocess.run([mlab, "plot", bad, "--out", tmp] + extra, capture_output=True, text=True,
                           env=env)
        check(p.returncode == 3 and bad in p.stderr and len(p.stderr.splitlines()) == 1
              and "plots skipped" not in p.stdout,
              f"no gnuplot, a bad file {' '.join(extra)}: exit {p.returncode}, want 3 and one line\n"
              f"{p.stdout}{p.stderr}")

    if not shutil.which("gnuplot"):
        print("SKIP: gnuplot not installed (the no-gnuplot paths passed)" if not FAILURES else
              "\n".join(FAILURES))
        return 1 if FAILURES else 77

    out = os.path.join(tmp, "fig")
    p = subprocess.run([mlab, "plot", r, "--out", out, "--format", "both"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"plot: exit {p.returncode}\n{p.stdout}{p.stderr}")
    check("warning" not in p.stderr.lower(), f"gnuplot warned:\n{p.stderr}")
    for kind in ["latency", "bandwidth", "error"]:
        png = os.path.join(out, f"r.{kind}.png")
        svg = os.path.join(out, f"r.{kind}.svg")
        check(os.path.exists(png) and os.path.exists(svg), f"{kind}: figures missing in {out}")
        if os.path.exists(png):
            with open(png, "rb") as f:
                head = f.read(24)
            check(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{png}: not a PNG")
            w, h = struct.unpack(">II", head[16:24])
            check((w, h) == (1100, 650), f"{png}: {w}x{h}, want 1100x650")
        if os.path.exists(svg):
            try:
                root = ET.parse(svg).getroot()
                check(root.tag.endswith("svg"), f"{svg}: root is {root.tag}")
            except ET.ParseError as e:
                check(False, f"{svg}: not XML: {e}")
                continue
            text = open(svg, encoding="utf-8").read()
            check("NVIDIA H200" in text and "commit" in text and "CUDA 13.0" in text,
                  f"{svg}: title lacks GPU/runtime/commit")
            check(("cpu_ref_fp8" in text) == (kind == "error"),
                  f"{svg}: cpu_ref_fp8 {'missing' if kind == 'error' else 'drawn'}")
            check(FP8 in text and BF16 in text, f"{svg}: fp8/bf16 not in their colours")
            if kind != "error":
                labels = xlabels(svg)
                check(labels == ["b4_kv1024_s4217", "b64_kv8192_s1360", "b256_kv8192_s9826"],
                      f"{svg}: cases not ordered by bytes: {labels}")
            if kind == "latency":
                check("floor" in text, f"{svg}: no floor in the key")
    check(glob.glob(os.path.join(out, "*.csv")) == [], "plot data file was not removed")
    check(glob.glob(os.path.join(out, "*.tmp.*")) == [], "temporaries left behind")

    # the colour follows the name, not the position: fp8 alone keeps fp8's colour
    only = os.path.join(tmp, "only.h5")
    subprocess.run([tool, "write", only, "--seed", "2", "--variants", "2"], check=True)
    p = subprocess.run([mlab, "plot", only, "--out", out, "--format", "svg"],
                       capture_output=True, text=True)
    # --variants 2 = bf16, fp8: drop bf16 by exporting fp8 rows only through the CSV
    p = subprocess.run([mlab, "plot", only, "--out", out, "--format", "svg", "--keep-data"],
                       capture_output=True, text=True)
    csvp = os.path.join(out, "only.csv")
    if p.returncode == 0 and os.path.exists(csvp):
        lines = open(csvp).read().splitlines()
        vcol = lines[0].split(",").index("variant")
        fp8only = os.path.join(out, "fp8only.csv")
        with open(fp8only, "w") as f:
            f.write("\n".join([lines[0]] + [l for l in lines[1:] if l.split(",")[vcol] == "fp8"]) + "\n")
        svg = os.path.join(out, "fp8only.svg")
        q = subprocess.run(["gnuplot", "-c", os.path.join(plots, "latency.gp"), fp8only, svg],
                           capture_output=True, text=True)
        text = open(svg).read() if os.path.exists(svg) else ""
        check(q.returncode == 0 and FP8 in text and BF16 not in text,
              f"fp8 alone: not fp8's colour (or bf16's present)\n{q.stderr}")
    else:
        check(False, f"plot --keep-data: {p.stderr}")

    # by hand, one argument: the kept CSV
    p = subprocess.run([mlab, "plot", r, "--out", out, "--keep-data"], capture_output=True, text=True)
    data = os.path.join(out, "r.csv")
    check(p.returncode == 0 and os.path.exists(data), f"--keep-data: {p.stderr}")
    for kind in ["latency", "bandwidth", "error"]:
        fig = os.path.join(out, f"r.{kind}.png")
        os.remove(fig)
        q = subprocess.run(["gnuplot", "-c", os.path.join(plots, f"{kind}.gp"), data],
                           capture_output=True, text=True)
        check(q.returncode == 0 and os.path.exists(fig), f"by hand {kind}.gp: {q.stderr}")
    q = subprocess.run(["gnuplot", "-c", os.path.join(plots, "latency.gp")], capture_output=True,
                       text=True)
    check(q.returncode == 2 and "usage" in q.stdout + q.stderr, f"no argument: {q.returncode}")

    # a GPU name that starts with a quote
    odd = os.path.join(tmp, "odd.h5")
    name = "'Quoted\" GPU, with comma"
    subprocess.run([tool, "write", odd, "--seed", "2", "--gpu", name], check=True)
    p = subprocess.run([mlab, "plot", odd, "--out", out, "--format", "svg"], capture_output=True,
                       text=True)
    svg = os.path.join(out, "odd.latency.svg")
    text = open(svg).read() if os.path.exists(svg) else ""
    check(p.returncode == 0 and "Quoted" in text and "with comma" in text,
          f"quoted GPU name: exit {p.returncode}\n{p.stderr}")

    # the quickstart's path: a CPU-only run has an error figure only, drawn without warnings
    cpu = os.path.join(tmp, "cpu.h5")
    p = subprocess.run([mlab, "run", "--cpu-only", "--quiet", "-o", cpu], capture_output=True, text=True)
    p = subprocess.run([mlab, "plot", cpu, "--out", out], capture_output=True, text=True)
    check(p.returncode == 0 and os.path.exists(os.path.join(out, "cpu.error.png"))
          and not os.path.exists(os.path.join(out, "cpu.latency.png"))
          and "warning" not in p.stderr.lower(), f"CPU-only plot: exit {p.returncode}\n{p.stderr}")

    p = subprocess.run([mlab, "plot", r, "--history", r], capture_output=True, text=True)
    check(p.returncode == 2 and "mlabench history" in p.stderr, f"--history: {p.returncode} {p.stderr}")

    # every variant (variants/variant_list.h), library peer (harness/peer.c)
    # and CPU reference (a CPU run's rows) has a colour of its own in
    # common.gp's palette, none black (the tolerance bars'): spare colours by
    # a name's length gave bf16_wgmma, mxfp4_wgmma_qrow and two CPU rows one
    # colour in the same figure
    gp = open(os.path.join(plots, "common.gp")).read()
    pal = dict(re.findall(r"n eq '([^']+)' \? '(#[0-9a-f]{6})'", gp))
    names = re.findall(r"X\(\d+, (\w+),", open(os.path.join(src, "variants", "variant_list.h")).read())
    names += re.findall(r'\{"(\w+)", "\w+", MLAB_KV_', open(os.path.join(src, "harness", "peer.c")).read())
    e = subprocess.run([mlab, "export", cpu], capture_output=True, text=True)
    names += sorted({row["variant"] for row in csv.DictReader(io.StringIO(e.stdout))})
    missing = [n for n in names if n not in pal]
    cols = [pal[n] for n in names if n in pal]
    check(len(names) > 25 and not missing and len(set(cols)) == len(cols) and "#000000" not in cols,
          f"a colour of its own for each of {len(names)} names: missing {missing}, "
          f"shared {sorted({c for c in cols if cols.count(c) > 1})}")
    return finish("test_results_plot", tmp)


if __name__ == "__main__":
    sys.exit(main())
