#!/usr/bin/env python3
"""test_results_report.py: `mlabench report` writes a Markdown report that
explains a results file.

Pins: the report has the environment table (GPU, runtime, copy bandwidth),
the input files with their SHA-256, one table per case with one line per
variant (valid, median, IQR, GB/s, % copy bw, kernel rel_rms), links to the
figures present in --plots (and none when absent), and the tolerance rows the
rows name, with their numbers from the tolerance table; -o writes it
atomically (no temporary left), and a non-results file exits 3.
The report leads with the headline (before the environment): pivots of case
(ordered by bytes: b4 before b64 before b256) x variant with the median, the
ratio to the parent (fp8 / bf16 = the rows' medians), the ratio to the floor
(median / (bytes / copy bw), marked † since no read limit was measured) and
geomean rows; with a peer row (20% faster than bf16) a fourth pivot, the
ratio to the best peer of the format (bf16: 1.250; "-" for the peer itself),
absent without peers; CPU reference rows in their own section, not in the GPU
pivots nor in the per-case tables; a glossary naming every column and
derived format (mism@tol, comp, cpu_ref_fp8_pexact, cpu_ref_fp8_kvonly ...).
Usage: test_results_report.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import glob
import re
import os
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def main():
    tool, mlab = programs()
    tmp = scratch("report")
    r = os.path.join(tmp, "r.h5")
    subprocess.run([tool, "write", r, "--seed", "3"], check=True)

    md = os.path.join(tmp, "report.md")
    figs = os.path.join(tmp, "figs")
    os.mkdir(figs)
    p = subprocess.run([mlab, "report", r, "-o", md, "--plots", figs], capture_output=True, text=True)
    check(p.returncode == 0, f"report: exit {p.returncode}\n{p.stderr}")
    text = open(md).read()
    check("## Environment" in text and "| gpu_name | NVIDIA H200 |" in text
          and "| runtime_version | CUDA 12.8 |" in text and "| copy_bw_gbs | 4270 |" in text,
          "environment table incomplete")
    check("0123456789abcdef" * 4 in text and "mlabench-case v1" in text, "inputs table incomplete")
    for case in ["b4_kv1024_s4217", "b64_kv8192_s1360", "b256_kv8192_s9826"]:
        check(f"### {case} (batch" in text, f"no table for {case}")
    table_lines = [l for l in text.splitlines() if l.startswith("| fp8 | fp8 | pass |")]
    check(len(table_lines) == 3, f"want 3 fp8 lines (one per case), got {len(table_lines)}")
    check("No figures in" in text, "absent figures should be said")
    # the headline leads
    check(0 < text.find("## Headline") < text.find("## Environment"), "no headline before the environment")
    head = text[text.find("## Headline"):text.find("## Environment")]
    med = [l for l in head.split("**Cold median, us**")[1].split("**")[0].splitlines() if l.startswith("| b")]
    check([l.split("|")[1].strip() for l in med] == ["b4_kv1024_s4217", "b64_kv8192_s1360",
                                                     "b256_kv8192_s9826"], f"cases not by bytes: {med}")
    import h5py
    with h5py.File(r, "r") as f:
        rows = {(x["case_name"].decode(), x["variant"].decode()): x for x in f["rows"][...]}
    par = [l for l in head.split("**Ratio to the parent")[1].split("**")[1].splitlines()
           if l.startswith("| b256")]
    want = rows[("b256_kv8192_s9826", "fp8")]["median_us"] / rows[("b256_kv8192_s9826", "bf16")]["median_us"]
    check(par and abs(float(par[0].split("|")[3]) - want) < 1e-3,
          f"fp8 / bf16 ratio: {par} want {want:.3f}")
    flo = [l for l in head.split("**Ratio to the floor")[1].split("**")[1].splitlines()
           if l.startswith("| b256")]
    x = rows[("b256_kv8192_s9826", "bf16")]
    want = x["median_us"] / (x["bytes"] / (4270 * 1e3))
    check(flo and abs(float(flo[0].split("|")[2].split()[0]) - want) < 1e-3 and "†" in flo[0],
          f"floor ratio: {flo} want {want:.3f} †")
    check(head.count("| geomean |") == 3, "geomean rows missing")
    check("cpu_ref" not in head, "CPU rows inside the GPU headline")
    for term in ["mism@tol", "comp", "cpu_ref_fp8_pexact", "cpu_ref_fp8_kvonly", "cpu_ref_mxfp4_up",
                 "kernel rel_rms", "total rel_rms", "floor", "% copy bw", "TFLOP/s", "samples (stop)"]:
        check(f"| {term}" in text.split("## Glossary")[-1], f"glossary lacks {term}")
    check("Ratio to the best peer" not in text, "a peer pivot without peer rows")
    peer = os.path.join(tmp, "peer.h5")
    subprocess.run([tool, "write", peer, "--seed", "3", "--peer", "1"], check=True)
    t3 = subprocess.run([mlab, "report", peer], capture_output=True, text=True).stdout
    pv = t3.split("**Ratio to the best peer")[1].split("**")[1] if "**Ratio to the best peer" in t3 else ""
    hdr = [l for l in pv.splitlines() if l.startswith("| case")]
    b4 = [l for l in pv.splitlines() if l.startswith("| b4_")]
    if hdr and b4:
        cells = dict(zip([c.strip() for c in hdr[0].split("|")], [c.strip() for c in b4[0].split("|")]))
        check(abs(float(cells["bf16"]) - 1.25) < 1e-3 and cells["flashpeer"] == "-",
              f"ratio to the best peer: bf16 {cells.get('bf16')} want 1.250, the peer itself '-'")
    else:
        check(False, f"no peer pivot with peer rows\n{t3[:3000]}")
    cpu = os.path.join(tmp, "cpu.h5")
    subprocess.run([tool, "write", cpu, "--seed", "3", "--cpu-rows", "1"], check=True)
    t2 = subprocess.run([mlab, "report", cpu], capture_output=True, text=True).stdout
    apart = t2[t2.find("## CPU references"):t2.find("## Environment")]
    percase = t2[t2.find("## Results per case"):t2.find("## Figures")]
    check("cpu_ref_fp8" in apart and "cpu_ref_fp8" not in percase
          and "cpu_ref_fp8" not in t2[:t2.find("## CPU references")],
          "CPU rows must be apart (own section only)")
    # ran as: splits / blocks an SM / merge on GPU rows ("-" for what a file lacks), "-" on peers
    rm = os.path.join(tmp, "ranas.h5")
    subprocess.run([tool, "write", rm, "--seed", "4", "--merge", "combine16", "--peer", "1"], check=True)
    t4 = subprocess.run([mlab, "report", rm], capture_output=True, text=True).stdout
    pc = t4[t4.find("## Results per case"):t4.find("## Figures")]
    check("| ran as |" in pc and pc.count(" | 8 / 2 / combine16 |") == 9
          and re.search(r"\| flashpeer \|.*\| - \|\n", pc),
          f"ran as column\n{pc[:2500]}")
    # ... with the main kernel's footprint where the file has it
    rk = os.path.join(tmp, "ranas_regs.h5")
    subprocess.run([tool, "write", rk, "--seed", "4", "--merge", "combine16", "--regs", "168", "--local", "16"],
                   check=True)
    pk = subprocess.run([mlab, "report", rk], capture_output=True, text=True).stdout
    check(pk.count(" | 8 / 2 / combine16 / 168 regs, 16 B local |") == 9, f"ran as with registers\n{pk[:2500]}")
    # ... and the KV copies' L2 policy where the file has it
    rl = os.path.join(tmp, "ranas_l2.h5")
    subprocess.run([tool, "write", rl, "--seed", "4", "--merge", "combine16", "--regs", "168", "--l2-policy",
                    "evict_first"], check=True)
    pl = subprocess.run([mlab, "report", rl], capture_output=True, text=True).stdout
    check(pl.count(" | 8 / 2 / combine16 / 168 regs / L2 evict_first |") == 9, f"ran as with the L2 policy\n{pl[:2500]}")
    # ... and the decode block's unit where not a row's (the MTP unit: item), not where it is
    for unit, want in (("item", " | 8 / 2 / combine16 / 168 regs / unit item / L2 evict_first |"),
                       ("row", " | 8 / 2 / combine16 / 168 regs / L2 evict_first |")):
        ru = os.path.join(tmp, f"ranas_{unit}.h5")
        subprocess.run([tool, "write", ru, "--seed", "4", "--merge", "combine16", "--regs", "168", "--l2-policy",
                        "evict_first", "--unit", unit], check=True)
        pu = subprocess.run([mlab, "report", ru], capture_output=True, text=True).stdout
        check(pu.count(want) == 9, f"ran as with unit {unit}\n{pu[:2500]}")
    check("| kernel:bf16 | 0.01562 | 0.01562 | 0.004 |" in text
          and "| kernel:fp8 | 0.125 | 0.125 | 0.03 |" in text, "tolerance rows missing")

    open(os.path.join(figs, "r.latency.png"), "wb").write(b"\x89PNG\r\n\x1a\n")
    open(os.path.join(figs, "r.error.svg"), "w").write("<svg/>")
    p = subprocess.run([mlab, "report", r, "--plots", figs], capture_output=True, text=True)
    check(p.returncode == 0, f"report to stdout: exit {p.returncode}")
    check(f"![latency (png)]({figs}/r.latency.png)" in p.stdout
          and f"![error (svg)]({figs}/r.error.svg)" in p.stdout
          and "bandwidth" not in p.stdout.split("## Figures")[1].split("##")[0],
          "figure links wrong:\n" + p.stdout.split("## Figures")[1][:400])
    # a report written beside its figures' folder links them relatively (an
    # absolute --plots path broke once the two folders moved together)
    os.makedirs(os.path.join(tmp, "rep"), exist_ok=True)
    rep = os.path.join(tmp, "rep", "r.md")
    p = subprocess.run([mlab, "report", r, "--plots", figs, "-o", rep], capture_output=True, text=True)
    text = open(rep).read() if os.path.exists(rep) else ""
    rel = os.path.relpath(figs, os.path.dirname(rep))
    check(p.returncode == 0 and f"![latency (png)]({rel}/r.latency.png)" in text and not rel.startswith("/"),
          f"figure links relative to the report ({rel}): " + text.split("## Figures")[-1][:300])
    # a best peer whose samples spread over a quarter of their median (host-bound: FlashMLA
    # fp8's short calls) marks the ratios to it, and the note says why
    pr = os.path.join(tmp, "peer.h5")
    subprocess.run([tool, "write", pr, "--seed", "1", "--peer", "1"], check=True)
    quiet = subprocess.run([mlab, "report", pr], capture_output=True, text=True).stdout
    with h5py.File(pr, "r+") as f:
        rows = f["rows"][...]
        for i in range(len(rows)):
            if rows["kind"][i] == b"peer":
                rows["q3_us"][i] = rows["median_us"][i] * 1.3
        f["rows"][...] = rows
    loud = subprocess.run([mlab, "report", pr], capture_output=True, text=True).stdout
    best = loud.split("Ratio to the best peer")[-1].split("\n\n")[1] if "Ratio to the best peer" in loud else ""
    check("‡" not in quiet and best.count("‡") >= 3 and "host-bound" in loud,
          f"ratios to a host-bound best peer marked (‡) with a note:\n{best[:600]}")
    # figures beside the report are linked by bare name
    md2 = os.path.join(figs, "report.md")
    subprocess.run([mlab, "report", r, "-o", md2, "--plots", figs], check=True)
    check("![latency (png)](r.latency.png)" in open(md2).read(), "relative link beside the report")
    check(glob.glob(os.path.join(tmp, "*.tmp.*")) == [], "temporary left behind")

    bad = os.path.join(tmp, "bad.h5")
    open(bad, "w").write("not hdf5")
    p = subprocess.run([mlab, "report", bad], capture_output=True, text=True)
    check(p.returncode == 3 and "not an HDF5 file" in p.stderr, f"bad file: exit {p.returncode}")

    return finish("test_results_report", tmp)


if __name__ == "__main__":
    sys.exit(main())
