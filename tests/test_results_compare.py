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
    ("runtime_version: CUDA 12.8 -> CUDA 13.0"); two builds whose
    kernel_knobs (30-odd key=value words) differ in one word list that word
    alone on each side and how many they share ("kernel_knobs: wg_mx_kb=3
    -> wg_mx_kb=2 (N words the same)"), a word only one side has against
    "(none)", and short fields whole;
  - accuracy drift (rel_rms x5) and a pass -> fail flip: "accuracy-regression",
    exit 6, even though the times are the same; drift on the CPU reference
    rows alone (their kernel_rel_rms x5, via h5py) exits 6 too;
  - rows present in one file only are listed; CPU reference rows (kind
    "cpu") are listed apart, accuracy only ("CPU rows (accuracy only)");
  - nothing pairs (every case renamed): exit 8, "nothing compared", not
    "no regression";
  - paired rows with different per-tensor input hashes: "inputs-differ"
    naming the tensor (kv_bf16), exit 9 even when also slower; equal hashes
    pass;
  - the closing "regressions:" list names each slower row and
    "improvements:" each faster one ("none" when empty); a pair both faster
    and drifted is a regression, never an improvement (text and json);
  - --format csv (one parseable line per pair), json (parses; exit and
    lists agree with the text), md (Markdown table rows);
  - the text table's columns are aligned (every row's verdict starts at the
    same column);
  - a different GPU UUID (same model) prints the cross-machine hint, and
    --threshold 0.05 silences it;
  - --per-read-limit (files with read limits from results_tool --read-limit):
    a 10% slower machine (samples and read limits x1.10) is "slower" in us
    but "same" per read limit, with U p-values of the divided samples
    (>= alpha; the raw samples give ~1e-11); with equal read limits the
    verdicts, p-values and changes equal the plain compare's; a pair without
    a read limit on either side is "unclear", "n/a (no read limit)", never
    compared in us, counted in the summary and on stderr, and exits 0 unless
    a comparable pair regressed (6); CPU rows stay accuracy only; text, md,
    csv and json name the unit ("x read limit"; json "unit"), and without
    the option nothing says so (csv old_median_us, no json "unit");
  - --help documents exit codes 6, 7, 8 and 9; a missing file exits 4.
Usage: test_results_compare.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

from mlabtest import check, finish, programs, scratch


def csv_rows(out):
    return {(r["case_name"], r["variant"]): r for r in csv.DictReader(io.StringIO(out))}


def per_read_limit(write, compare, verdict_lines, no_limit):
    """--per-read-limit; no_limit: a file without read limits."""
    rl = write("rl.h5", "--seed", "1", "--read-limit", "1")
    # another machine 10% slower at everything, the read limit included
    machine = write("rl_machine.h5", "--seed", "3", "--scale", "1.10", "--read-limit", "1.10")
    rc, out, err = compare(rl, machine)
    check(rc == 6 and len(verdict_lines(out)) == 9
          and all("slower" in l for l in verdict_lines(out)),
          f"slower machine in us: exit {rc}, want 6 and all slower\n{out}{err}")
    rc, out, err = compare(rl, machine, "--per-read-limit")
    lines = verdict_lines(out)
    check(rc == 0 and len(lines) == 9 and all(l.rstrip().endswith("same (not significant)")
                                              for l in lines)
          and "9 same, 0 faster, 0 slower, 0 unclear (0 without a read limit" in out
          and "regressions: none" in out and err == "",
          f"slower machine per read limit: exit {rc}, want 0 and all same\n{out}{err}")
    rc, out, err = compare(rl, machine, "--per-read-limit", "--format", "json")
    ps = [q["p_value"] for q in json.loads(out)["pairs"]]
    check(all(x >= 0.05 for x in ps),
          f"the U test must run on the divided samples (raw ones: p ~ 1e-11): {ps}")

    # equal read limits: the plain compare's verdicts, p-values and changes
    same_rl = write("rl_b.h5", "--seed", "2", "--read-limit", "1")
    kernel = write("rl_kernel.h5", "--seed", "3", "--scale", "1.10", "--read-limit", "1")
    for old, new in ((rl, same_rl), (rl, kernel), (kernel, rl)):
        rc0, plain, _ = compare(old, new, "--format", "csv")
        rc1, per, _ = compare(old, new, "--format", "csv", "--per-read-limit")
        x, y = csv_rows(plain), csv_rows(per)
        agree = rc0 == rc1 and x.keys() == y.keys() and all(
            x[k]["verdict"] == y[k]["verdict"]
            and abs(float(x[k]["p_value"]) - float(y[k]["p_value"])) <= 1e-9 * float(x[k]["p_value"])
            and abs(float(x[k]["change"]) - float(y[k]["change"])) < 1e-9 for k in x)
        check(agree and len(x) == 9,
              f"equal read limits {os.path.basename(old)} -> {os.path.basename(new)}: exit "
              f"{rc0} vs {rc1}, verdicts must agree\n{plain}\n{per}")
    rc, out, err = compare(rl, kernel, "--per-read-limit")
    check(rc == 6 and all("slower" in l for l in verdict_lines(out)),
          f"a 10% slower kernel per read limit: exit {rc}, want 6\n{out}{err}")

    # no read limit: unclear, never compared in us, counted; exit 0 ...
    rc, out, err = compare(no_limit, machine, "--per-read-limit")
    lines = verdict_lines(out)
    check(rc == 0 and len(lines) == 9
          and all(re.split(r"\s{2,}", l)[2] == "no read limit" and "n/a (no read limit)" in l
                  and l.rstrip().endswith("unclear") and "%" not in l for l in lines)
          and "slower (" not in out
          and "0 same, 0 faster, 0 slower, 9 unclear (9 without a read limit, not compared)" in out
          and "9 pairs have no read limit" in err,
          f"no read limit in OLD: exit {rc}, want 0, 9 unclear, no times in us\n{out}{err}")
    rc, out, err = compare(machine, no_limit, "--per-read-limit", "--format", "json")
    j = json.loads(out)
    check(rc == 0 and j["summary"]["no_read_limit"] == 9 and j["summary"]["unclear"] == 9
          and all(q["new_read_limit_us"] is None and q["change"] is None
                  and q["new_median_x_read_limit"] is None for q in j["pairs"]),
          f"no read limit in NEW (json): exit {rc}\n{out}{err}")
    # ... unless a comparable pair regressed: the first case has read limits
    part_slow = write("rl_part_slow.h5", "--seed", "3", "--scale", "1.10", "--read-limit", "1",
                      "--read-limit-cases", "1")
    rc, out, err = compare(rl, part_slow, "--per-read-limit")
    regs = out.split("regressions:")[1].split("improvements:")[0]
    check(rc == 6 and "3 slower, 6 unclear (6 without a read limit, not compared)" in out
          and regs.count(": slower") == 3 and "b4_kv1024_s4217/fp8: slower" in regs,
          f"partly without read limits, 3 slower: exit {rc}, want 6\n{out}{err}")
    part_same = write("rl_part.h5", "--seed", "2", "--read-limit", "1", "--read-limit-cases", "1")
    rc, out, err = compare(rl, part_same, "--per-read-limit")
    check(rc == 0 and "3 same, 0 faster, 0 slower, 6 unclear (6 without a read limit" in out
          and "6 pairs have no read limit" in err,
          f"partly without read limits, rest same: exit {rc}, want 0\n{out}{err}")
    # CPU rows have no read limit and stay accuracy only, in us
    cpu = write("rl_cpu.h5", "--seed", "2", "--read-limit", "1", "--cpu-rows", "1")
    rc, out, err = compare(cpu, cpu, "--per-read-limit")
    cpu_part = out.split("CPU reference rows")[-1]
    check(rc == 0 and "9 same" in out and "(0 without a read limit" in out
          and "3 CPU rows (accuracy only)" in out and "old median [q1, q3] us" in cpu_part
          and cpu_part.count("accuracy ok") == 3, f"CPU rows per read limit\n{out}{err}")

    # every format names the unit; without the option none does
    rc, out, err = compare(rl, machine, "--per-read-limit")
    check("old median [q1, q3] x read limit" in out and "unit: x read limit" in out
          and " us " not in out.split("unit:")[1], f"text: unit not named\n{out}")
    rc, out, err = compare(rl, machine, "--per-read-limit", "--format", "md")
    check("| old median [q1, q3] x read limit | new median [q1, q3] x read limit |" in out
          and "unit: x read limit" in out, f"md: unit not named\n{out}")
    rc, out, err = compare(rl, machine, "--per-read-limit", "--format", "csv")
    head = out.splitlines()[0].split(",")
    check("old_median_x_read_limit" in head and "new_q3_x_read_limit" in head
          and not any(h.endswith("_us") and "read_limit" not in h for h in head)
          and "new_read_limit_us" in head, f"csv: unit not named\n{out}")
    rc, per, err = compare(rl, machine, "--per-read-limit", "--format", "json")
    rc, plain, err = compare(rl, machine, "--format", "json")
    jp, jq = json.loads(per), json.loads(plain)
    p0, q0 = jp["pairs"][0], jq["pairs"][0]
    check(jp["unit"] == "x read limit" and "unit" not in jq and "old_median_us" not in p0
          and abs(p0["new_median_x_read_limit"] * p0["new_read_limit_us"] - q0["new_median_us"])
          < 1e-6 * q0["new_median_us"], f"json: unit and values\n{per}")
    rc, out, err = compare(rl, machine, "--format", "csv")
    check(out.startswith("case_name,variant,kind,old_median_us,") and "read_limit" not in out,
          f"csv without the option must be unchanged\n{out}")
    rc, out, err = compare(rl, machine)
    check("read limit" not in out, f"text without the option must be unchanged\n{out}")


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

    # kernel_knobs: the words that differ, not two 400-character strings
    words = ["backend=cuda", "pdl=1", "trace=0"] + [f"k{i}=v{i}" for i in range(20)]
    base_knobs = " ".join(words + ["wg_mx_kb=3", "merge=default"])
    kb2_knobs = " ".join(words + ["wg_mx_kb=2", "merge=default"])
    more_knobs = kb2_knobs + " wg_qk_acc=6"
    kb = write("knobs_base.h5", "--seed", "2", "--knobs", base_knobs)
    k2 = write("knobs_kb2.h5", "--seed", "2", "--knobs", kb2_knobs)
    km = write("knobs_more.h5", "--seed", "2", "--knobs", more_knobs)
    rc, out, err = compare(kb, k2)
    line = next((l.strip() for l in out.splitlines() if l.strip().startswith("kernel_knobs:")), "")
    check(rc == 0 and line == "kernel_knobs: wg_mx_kb=3 -> wg_mx_kb=2 (24 words the same)",
          f"kernel_knobs difference should name the one word: {line!r}\n{out}{err}")
    rc, out, err = compare(k2, km)
    line = next((l.strip() for l in out.splitlines() if l.strip().startswith("kernel_knobs:")), "")
    check(line == "kernel_knobs: (none) -> wg_qk_acc=6 (25 words the same)",
          f"a word only the new side has: {line!r}\n{out}")
    rc, out, err = compare(kb, kb)
    check("kernel_knobs:" not in out and "environment: no differences" in out,
          f"equal knobs listed as a difference\n{out}")

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
    cpu_part = out.split("CPU reference rows")[-1].split("regressions:")[0]
    cpu_lines = [l for l in cpu_part.splitlines() if "cpu_ref_fp8" in l]
    gpu_part = out.split("CPU reference rows")[0]
    check(rc == 0 and len(cpu_lines) == 3 and "cpu_ref_fp8" not in gpu_part
          and all(l.rstrip().endswith("accuracy ok") for l in cpu_lines)
          and "9 same, 0 faster, 0 slower, 0 unclear, 3 CPU rows (accuracy only)" in out,
          f"CPU reference rows: want them apart, accuracy only\n{out}{err}")
    # a CPU row's accuracy drift alone decides the exit code (GPU rows unchanged)
    try:
        import h5py
    except ImportError as e:  # pragma: no cover
        h5py = None
        print(f"skip: CPU-row drift exit code ({e})")
    if h5py:
        cpu_drift = os.path.join(tmp, "cpu_drift.h5")
        shutil.copy(cpu_a, cpu_drift)
        with h5py.File(cpu_drift, "r+") as f:
            r = f["rows"][...]
            r["kernel_rel_rms"][r["kind"] == b"cpu"] *= 5
            f["rows"][...] = r
        rc, out, err = compare(cpu_a, cpu_drift)
        cpu_part = out.split("CPU reference rows")[-1].split("regressions:")[0]
        check(rc == 6 and cpu_part.count("accuracy-regression") == 3,
              f"CPU rows' rel_rms x5 only: exit {rc}, want 6\n{out}{err}")

    # aligned columns: every verdict starts at the column of the header's "verdict"
    rc, out, err = compare(a, slow)
    head = [l for l in out.splitlines() if l.startswith("case ")][0]
    col = head.index("verdict")
    check(all(l[col:].startswith("slower") for l in verdict_lines(out)),
          f"columns not aligned at {col}\n{out}")
    # the closing lists name each row
    regs = out.split("regressions:")[1].split("improvements:")[0]
    check(all(f"{c}/{v}: slower" in regs for c in ("b4_kv1024_s4217", "b256_kv8192_s9826")
              for v in ("bf16", "fp8", "mxfp4")) and "improvements: none" in out,
          f"regressions list must name the 9 slower rows\n{out}")
    rc, out, err = compare(slow, a)
    imps = out.split("improvements:")[1]
    check("regressions: none" in out and "b64_kv8192_s1360/fp8: faster" in imps,
          f"improvements list must name the faster rows\n{out}")
    # faster but drifted: listed as a regression, never as an improvement (text and json)
    fast_drift = write("fast_drift.h5", "--seed", "3", "--scale", "0.90", "--rel-rms", "5e-3")
    rc, out, err = compare(a, fast_drift)
    regs, imps = out.split("regressions:")[1].split("improvements:")
    imps = imps.split("summary:")[0]
    check(rc == 6 and regs.count(": accuracy:") == 9 and ": faster" not in imps,
          f"faster and drifted (text): exit {rc}, want 6, no improvement lines\n{out}{err}")
    rc, out, err = compare(a, fast_drift, "--format=json")
    j = json.loads(out)
    check(rc == 6 and j["improvements"] == []
          and sorted(j["regressions"]) == sorted(f"{q['case_name']}/{q['variant']}" for q in j["pairs"])
          and len(j["pairs"]) == 9,
          f"faster and drifted (json): improvements must be empty\n{out}{err}")

    # a peer's change (an external implementation: host-bound timings swing)
    # is listed apart, never in the exit code or the geometric mean: the
    # v43 and v46 suites' compare exited 6 on flashmla_fp8 alone
    if h5py:
        pa = write("peer_a.h5", "--seed", "1", "--peer", "1")
        pb = os.path.join(tmp, "peer_b.h5")
        shutil.copy(pa, pb)
        with h5py.File(pb, "r+") as f:
            r, off, s = f["rows"][...], f["samples_offset"][...], f["samples_us"][...]
            for i in range(len(r)):
                if r["kind"][i] == b"peer":
                    o = int(off[i]); s[o:o + int(r["nsamples"][i])] *= 1.5
                    r["median_us"][i] *= 1.5
                    r["q1_us"][i] *= 1.5
                    r["q3_us"][i] *= 1.5
            f["samples_us"][...] = s
            f["rows"][...] = r
        rc, out, err = compare(pa, pb)
        geo = next((l for l in out.splitlines() if "geometric mean" in l), "")
        check(rc == 0 and "peers that changed" in out and out.count("/flashpeer: slower") == 3
              and "regressions: none" in out and "+0.00%" in geo and "3 peer pairs apart (0 faster, 3 slower" in out,
              f"a peer 50% slower alone: exit 0, listed apart, not in the geomean ({geo!r})\n{out}{err}")
        rc, out, err = compare(pa, pb, "--format=json")
        j = json.loads(out)
        # two runs whose own read limits moved: a hint to compare per read limit
        r1, r2 = os.path.join(tmp, "rb1.h5"), os.path.join(tmp, "rb2.h5")
        for path, bw in ((r1, 4300.0), (r2, 4400.0)):
            shutil.copy(pa, path)
            with h5py.File(path, "r+") as f:
                f.attrs["read_bw_gbs"] = bw
        rc2, out2, err2 = compare(r1, r2)
        check("read +2.3% apart" in out2 and "--per-read-limit" in out2.split("read +2.3% apart")[1],
              f"read bandwidth 2.3% apart: a hint to use --per-read-limit\n{out2[-400:]}")
        rc2, out2, err2 = compare(r1, r1)
        check("read limit kernels read" not in out2, "no read bandwidth hint for one machine's runs")
        check(rc == 0 and j["regressions"] == [] and len(j["peer_regressions"]) == 3
              and j["summary"]["peer_slower"] == 3 and j["summary"]["slower"] == 0,
              f"a peer 50% slower alone (json): peer_regressions, exit 0\n{out}{err}")

    # nothing pairs: a distinct exit code, never "no regression"
    other = write("other.h5", "--seed", "2", "--case-suffix", "_x")
    rc, out, err = compare(a, other)
    check(rc == 8 and "nothing compared" in err and "no regression" not in out
          and "only in OLD (9)" in out, f"zero pairs: exit {rc}, want 8\n{out}{err}")

    # per-tensor input hashes
    h1 = write("h1.h5", "--seed", "1", "--hashes", "1")
    h1b = write("h1b.h5", "--seed", "2", "--hashes", "1")
    h2 = write("h2.h5", "--seed", "2", "--hashes", "2")
    h2slow = write("h2slow.h5", "--seed", "3", "--hashes", "2", "--scale", "1.10")
    rc, out, err = compare(h1, h1b)
    check(rc == 0 and "inputs-differ" not in out, f"equal tensor hashes: exit {rc}\n{out}{err}")
    rc, out, err = compare(h1, h2)
    check(rc == 9 and out.count("inputs-differ") == 9 and "inputs: kv_bf16 differ" in out
          and "b4_kv1024_s4217/bf16: inputs differ (kv_bf16)" in out
          and "different inputs" in err, f"different inputs: exit {rc}, want 9\n{out}{err}")
    rc, out, err = compare(h1, h2slow)
    check(rc == 9, f"different inputs and slower: exit {rc}, want 9 (inputs win)\n{out}{err}")

    # rows that ran differently (split count, merge path) say so under the row
    def ran_said(old, new, line, what):
        """compare OLD NEW: '    ran: LINE' under each of the 9 rows"""
        rc, out, err = compare(old, new)
        check(out.count("    ran: " + line) == 9, f"{what}: want a 'ran:' line under each of the 9 rows\n{out}{err}")

    def ran_silent(old, new, what):
        """compare OLD NEW: no 'ran:' line"""
        rc, out, err = compare(old, new)
        check("ran:" not in out, f"{what}\n{out}")

    r16 = write("r16.h5", "--seed", "2", "--merge", "combine16")
    r64 = write("r64.h5", "--seed", "2", "--merge", "combine64", "--splits", "32")
    r16b = write("r16b.h5", "--seed", "3", "--merge", "combine16")
    ran_said(r16, r64, "splits 8 -> 32, merge combine16 -> combine64", "different splits and merge")
    ran_silent(r16, r16b, "alike runs: no 'ran:' line")
    ran_silent(a, r16, "a file without the merge field: merge not compared")
    # the KV copies' L2 policy (MLAB_KV_EVICT), where both files record it
    ef = write("ef.h5", "--seed", "2", "--merge", "combine16", "--l2-policy", "evict_first")
    nm = write("nm.h5", "--seed", "3", "--merge", "combine16", "--l2-policy", "normal")
    ran_said(nm, ef, "L2 policy normal -> evict_first", "L2 policies")
    ran_silent(r16, ef, "a file without the L2 policy: not compared")
    # the decode block's unit (MLAB_MTP's item, MLAB_PAIRS' heads), where both files record it
    urow = write("urow.h5", "--seed", "2", "--merge", "combine16", "--unit", "row")
    uitem = write("uitem.h5", "--seed", "3", "--merge", "combine16", "--unit", "item")
    ran_said(urow, uitem, "unit row -> item", "units")
    ran_silent(r16, uitem, "a file without the unit: not compared")
    # the SM clock read after each row (a power or thermal slowdown): said under the row where
    # the readings are more than 5% apart; a verdict that moved with it marked and counted
    c80 = write("c80.h5", "--seed", "2", "--clock", "1980", "--peer", "1")
    c70 = write("c70.h5", "--seed", "3", "--clock", "1700", "--throttled", "1", "--scale", "1.10", "--peer", "1")
    c19 = write("c19.h5", "--seed", "3", "--clock", "1935", "--scale", "1.10")
    c70f = write("c70f.h5", "--seed", "3", "--clock", "1700", "--scale", "0.90")
    rc, out, err = compare(c80, c70)
    check(rc == 6 and out.count("    ran: clock 1980 -> 1700 MHz (NVML flagged NEW)") == 12
          and out.count("on a clock that moved with it: re-measure") == 12
          and "9 verdicts on a clock that moved with them" in out,
          f"a slower run on a lower clock: 'ran:' under each of the 12 rows, every verdict marked,"
          f" 9 of ours counted, the exit still 6\n{out}{err}")
    rc, out, err = compare(c80, c19)
    check(rc == 6 and "ran:" not in out and "moved with" not in out,
          f"clocks 2.3% apart (the power limit's usual): not said\n{out}")
    rc, out, err = compare(c80, c70f)
    check(rc == 0 and out.count("ran: clock 1980 -> 1700 MHz") == 9 and "moved with" not in out,
          f"faster on a lower clock: said under the rows, not marked\n{out}")
    rc, out, err = compare(a, c70)
    check("ran:" not in out and "moved with" not in out, f"a file without clocks: not compared\n{out}")
    # the share of the rows' sampling NVML counted power-limited: the better witness where both
    # files have it (a clock that moved says nothing then; the share's move decides the mark)
    s0 = write("s0.h5", "--seed", "2", "--clock", "1980", "--slow", "0")
    s40 = write("s40.h5", "--seed", "3", "--clock", "1980", "--slow", "40", "--scale", "1.10")
    s5 = write("s5.h5", "--seed", "3", "--clock", "1700", "--slow", "5", "--scale", "1.10")
    rc, out, err = compare(s0, s40)
    check(rc == 6 and out.count("    ran: power/thermal-limited 0% -> 40% of the row") == 9
          and out.count("on a clock that moved with it") == 9,
          f"slower and 40% of the row power-limited: said and marked\n{out}{err}")
    rc, out, err = compare(s0, s5)
    check(rc == 6 and out.count("    ran: clock 1980 -> 1700 MHz") == 9 and "moved with" not in out
          and "power/thermal" not in out,
          f"a clock that moved but a share within 10 points: the clock said, the verdict not marked\n{out}")
    # the main kernel's footprint (a toolchain that spills): registers and local bytes
    k128 = write("k128.h5", "--seed", "2", "--regs", "128")
    k96 = write("k96.h5", "--seed", "2", "--regs", "96", "--local", "64")
    ran_said(k128, k96, "registers 128 -> 96, local bytes 0 -> 64", "registers and local bytes")
    ran_silent(a, k96, "a file without the footprint fields: not compared")
    rc, out, err = compare(r16, r64, "--format", "json")
    check(rc in (0, 6) and json.loads(out)["pairs"][0]["ran"] == "splits 8 -> 32, merge combine16 -> combine64"
          and json.loads(compare(r16, r16b, "--format", "json")[1])["pairs"][0]["ran"] == "same",
          f"json: the pairs' 'ran'\n{out[:2000]}{err}")

    # machine-readable formats
    rc, out, err = compare(a, slow, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    check(rc == 6 and len(rows) == 9 and all(r["verdict"] == "slower" for r in rows)
          and all(1.05 < 1 + float(r["change"]) < 1.15 for r in rows),
          f"--format csv: exit {rc}\n{out}{err}")
    rc, out, err = compare(cpu_a, slow, "--format=json")
    try:
        j = json.loads(out)
    except ValueError as e:
        j = None
        check(False, f"--format json does not parse: {e}\n{out}")
    if j:
        check(j["exit"] == rc == 6 and len(j["regressions"]) == 9 and j["summary"]["cpu_rows"] == 0
              and len(j["only_in_old"]) == 3 and j["old"]["gpu_name"] == "NVIDIA H200",
              f"--format json content: exit {rc}\n{out}")
    rc, out, err = compare(a, slow, "--format", "md")
    check(rc == 6 and "| --- | --- | ---: |" in out and "| b4_kv1024_s4217 | bf16 |" in out,
          f"--format md: exit {rc}\n{out}")
    rc, out, err = compare(a, slow, "--format", "xml")
    check(rc == 2, f"--format xml: exit {rc}, want 2")

    # another device of the same model: the cross-machine hint
    dev2 = write("dev2.h5", "--seed", "2", "--uuid", "GPU-11111111-other")
    rc, out, err = compare(a, dev2)
    check(rc == 0 and "hint:" in out and "--threshold 0.05" in out, f"no hint\n{out}{err}")
    rc, out, err = compare(a, dev2, "--threshold", "0.05")
    check("hint:" not in out, f"hint printed with --threshold 0.05\n{out}")

    per_read_limit(write, compare, verdict_lines, a)

    p = subprocess.run([mlab, "compare", "--help"], capture_output=True, text=True)
    check(p.returncode == 0 and "exit codes" in p.stdout and "6 a pair is slower" in p.stdout
          and "7 refused" in p.stdout and "8 nothing pairs" in p.stdout
          and "9 paired rows ran on different inputs" in p.stdout,
          f"--help must document exit codes\n{p.stdout}")
    check("--per-read-limit" in p.stdout and '"no read limit"' in p.stdout,
          f"--help must document --per-read-limit\n{p.stdout}")
    rc, out, err = compare(a, os.path.join(tmp, "missing.h5"))
    check(rc == 4 and "missing.h5" in err, f"missing file: exit {rc}, want 4\n{err}")
    rc, out, err = compare(a)
    check(rc == 2, f"one file: exit {rc}, want 2")

    return finish("test_results_compare", tmp)


if __name__ == "__main__":
    sys.exit(main())
