#!/usr/bin/env python3
"""test_results_export.py: results files open in h5py without our code, and
`mlabench export` agrees with them field for field.

Pins:
  (e) h5py alone reads a results file: root attributes format ==
      "mlabench-results" (a str), format_version == 1 and every environment
      field; /rows is a compound with the documented fields; row i's raw
      samples are samples_us[samples_offset[i]:samples_offset[i+1]] and their
      median/q1/q3/mean/stdev match numpy; /inputs holds the input files;
      datasets of 4 KB or more are stored with shuffle + deflate (where h5py
      has deflate), the others contiguous;
  (d) the tidy CSV of `mlabench export` has the run-level columns (gpu,
      runtime, driver, commit, label, date, ...), the derived columns, then
      the /rows field names in order, and every /rows cell equals the HDF5
      value (strings exactly, integers exactly, floats to the 9 significant
      digits of %.9g); `export --samples` lists every raw sample in file order;
  (t) the tidy table: run-level columns equal the file's attributes;
      `--format json` holds the same records as the CSV; two files give one
      table with run_index 0/1 and rel_to_first = median / run 0's median;
      case_index orders cases by bytes (b4 < b64 < b256); floor_us is bytes
      at copy bandwidth when no read limit was measured; ratio_to_parent of
      fp8 is its median / bf16's; `run --label L` lands in the label column.
Usage: test_results_export.py PATH/TO/results_tool   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no h5py / numpy).
"""
import csv
import io
import json
import math
import os
import subprocess
import sys

from mlabtest import FAILURES, check, finish, programs, scratch

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)


ENV_FIELDS = ["mlabench_version", "git_commit", "git_dirty", "compiler", "compile_flags",
              "gpu_backend", "gpu_compiler", "gpu_name", "gpu_arch", "gpu_uuid", "gpu_cu_count",
              "gpu_clock_mhz", "gpu_mem_clock_mhz", "gpu_l2_bytes", "driver_version",
              "runtime_version", "copy_bw_gbs", "host", "cpu", "utc_time", "command_line",
              "read_bw_gbs", "empty_kernel_us", "gpu_index", "gpu_compile_flags", "kernel_knobs",
              "label", "empty_pair_us", "gpu_mem_bus_bits"]
ERR = ["n", "max_abs", "max_abs_idx", "max_rel", "max_rel_idx", "rel_rms", "cos_diff", "rtol",
       "atol", "mismatches", "nonfinite_disagree", "first_nonfinite_idx", "comp_mismatch_frac",
       "comp_pass"]
ROW_FIELDS = (["case_name", "batch", "q_seq_len", "kv_len", "total_q", "total_kv", "variant",
               "variant_id", "kv_format", "splits", "valid", "kernel_tol", "nsamples",
               "stop_reason", "median_us", "q1_us", "q3_us", "min_us", "mean_us", "stdev_us",
               "graph_us", "bytes", "flops", "gbps", "pct_copy_bw", "tflops", "kind",
               "read_limit_us", "read_limit_ratio", "grid", "block", "smem_bytes", "blocks_per_sm", "regs",
               "local_bytes", "merge", "l2_policy", "unit",
               "peer_version", "device_index", "gpu_uuid", "host", "sm_clock_mhz", "temp_c",
               "throttled", "slow_us", "slow_span_us"]
              + ["kernel_" + e for e in ERR] + ["total_" + e for e in ERR])

RUN_COLS = ["run_index", "file", "label", "date", "gpu", "runtime", "driver", "commit", "dirty",
            "backend", "copy_bw_gbs", "read_bw_gbs"]


def same_float(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= 1e-8 * max(abs(a), abs(b))


def main():
    tool, mlab = programs()
    tmp = scratch("export")
    path = os.path.join(tmp, "r.h5")
    subprocess.run([tool, "write", path, "--seed", "7", "--samples", "31"], check=True)

    # (e) h5py alone
    with h5py.File(path, "r") as f:
        check(f.attrs["format"] == "mlabench-results" and isinstance(f.attrs["format"], str),
              f"format attribute: {f.attrs.get('format')!r}")
        check(int(f.attrs["format_version"]) == 2, "format_version != 2")
        for k in ENV_FIELDS:
            check(k in f.attrs, f"root attribute {k} missing")
        check(f.attrs["gpu_name"] == "NVIDIA H200", f"gpu_name {f.attrs['gpu_name']!r}")
        check(float(f.attrs["copy_bw_gbs"]) == 4270.0, "copy_bw_gbs")
        rows = f["rows"][...]
        check(list(rows.dtype.names) == ROW_FIELDS,
              f"/rows fields differ from the documented list:\n{rows.dtype.names}")
        off = f["samples_offset"][...]
        samples = f["samples_us"][...]
        # stored compressed where deflate exists (data/README.md): every dataset of 4 KB or more
        # (the rows, ~830 bytes each; the samples where 512 or more), the others contiguous
        if h5py.h5z.filter_avail(h5py.h5z.FILTER_DEFLATE):
            for name in ("rows", "samples_us", "samples_offset"):
                d = f[name]
                big = d.size * d.dtype.itemsize >= 4096
                check((d.compression == "gzip" and d.shuffle) == big,
                      f"{name} ({d.size * d.dtype.itemsize} bytes): compression {d.compression}, shuffle "
                      f"{d.shuffle}: want shuffle + deflate exactly from 4 KB")
            check(f["rows"].compression == "gzip", "this test's rows (over 4 KB) not compressed")
        check(off.dtype == np.int64 and len(off) == len(rows) + 1 and off[0] == 0
              and off[-1] == len(samples), "samples_offset shape or ends")
        for i, r in enumerate(rows):
            s = samples[off[i]:off[i + 1]]
            check(len(s) == r["nsamples"] == 31, f"row {i}: {len(s)} samples")
            q1, med, q3 = np.quantile(s, [0.25, 0.5, 0.75])
            check(abs(med - r["median_us"]) <= 1e-12 * med and abs(q1 - r["q1_us"]) <= 1e-12 * q1
                  and abs(q3 - r["q3_us"]) <= 1e-12 * q3, f"row {i}: quartiles differ from numpy")
            check(abs(s.mean() - r["mean_us"]) <= 1e-12 * s.mean()
                  and abs(s.std(ddof=1) - r["stdev_us"]) <= 1e-9 * s.std(ddof=1)
                  and s.min() == r["min_us"], f"row {i}: mean/stdev/min differ from numpy")
        inputs = f["inputs"][...]
        check(len(inputs) == 3 and inputs[0]["schema"] == b"mlabench-case"
              and len(inputs[0]["sha256"]) == 64, f"inputs: {inputs[:1]}")

    # (d) export agrees
    p = subprocess.run([mlab, "export", path], capture_output=True, text=True)
    check(p.returncode == 0, f"export failed: {p.stderr}")
    table = list(csv.reader(io.StringIO(p.stdout)))
    check(table[0][:len(RUN_COLS)] == RUN_COLS and table[0][-len(ROW_FIELDS):] == ROW_FIELDS,
          f"CSV header differs:\n{table[0]}")
    check(len(table) == len(rows) + 1, f"CSV has {len(table) - 1} rows, HDF5 {len(rows)}")
    for i, r in enumerate(rows):
        line = dict(zip(table[0], table[i + 1]))
        for name in rows.dtype.names:
            v, c = r[name], line.get(name)
            kind = rows.dtype.fields[name][0].kind
            if kind == "S":
                ok = v.decode() == c
            elif kind in "iu":
                ok = int(c) == int(v)
            else:
                ok = same_float(float(c), float(v))
            check(ok, f"row {i} field {name}: CSV {c!r} vs HDF5 {v!r}")
    p = subprocess.run([mlab, "export", path, "--samples"], capture_output=True, text=True)
    st = list(csv.reader(io.StringIO(p.stdout)))
    check(st[0] == ["case_name", "variant", "sample_index", "us"], f"samples header {st[0]}")
    check(len(st) - 1 == len(samples), f"{len(st) - 1} sample lines, want {len(samples)}")
    k = 0
    for i, r in enumerate(rows):
        for j in range(off[i], off[i + 1]):
            line = st[1 + k]
            check(line[0] == r["case_name"].decode() and line[1] == r["variant"].decode()
                  and int(line[2]) == j - off[i] and same_float(float(line[3]), samples[j]),
                  f"sample line {k}: {line}")
            k += 1
            if len(FAILURES) > 20:
                break

    # (t) the tidy table
    other = os.path.join(tmp, "slow.h5")
    subprocess.run([tool, "write", other, "--seed", "8", "--scale", "1.25", "--runtime", "CUDA 13.0",
                    "--label", "cuda-13"], check=True)
    p = subprocess.run([mlab, "export", path, other], capture_output=True, text=True)
    recs = list(csv.DictReader(io.StringIO(p.stdout)))
    check(p.returncode == 0 and len(recs) == 18, f"two files: exit {p.returncode}, {len(recs)} lines")
    with h5py.File(path, "r") as f:
        a = dict(f.attrs)
    r0 = [r for r in recs if r["run_index"] == "0"]
    r1 = [r for r in recs if r["run_index"] == "1"]
    check(all(r["gpu"] == a["gpu_name"] and r["runtime"] == a["runtime_version"]
              and r["driver"] == a["driver_version"] and r["commit"] == a["git_commit"]
              and r["date"] == a["utc_time"] and r["file"] == "r" for r in r0),
          f"run-level columns differ from the attributes: {r0[0]}")
    check(all(r["label"] == "cuda-13" and r["runtime"] == "CUDA 13.0" for r in r1), "run 1 columns")
    med0 = {(r["case_name"], r["variant"]): float(r["median_us"]) for r in r0}
    check(all(float(r["rel_to_first"]) == 1.0 for r in r0), "rel_to_first of run 0 is not 1")
    check(all(abs(float(r["rel_to_first"]) - float(r["median_us"]) / med0[(r["case_name"], r["variant"])])
              < 1e-6 for r in r1), "rel_to_first != median / run 0's")
    order = {r["case_name"]: int(r["case_index"]) for r in recs}
    check(order == {"b4_kv1024_s4217": 0, "b64_kv8192_s1360": 1, "b256_kv8192_s9826": 2},
          f"case_index not ordered by bytes: {order}")
    for r in r0:
        check(r["floor_kind"] == "copy_bw"
              and same_float(float(r["floor_us"]), float(r["bytes"]) / (4270 * 1e3)),
              f"floor_us of {r['case_name']}/{r['variant']}: {r['floor_us']}")
        if r["variant"] == "fp8":
            bf = med0[(r["case_name"], "bf16")]
            check(r["parent"] == "bf16"
                  and abs(float(r["ratio_to_parent"]) - float(r["median_us"]) / bf) < 1e-6,
                  f"ratio_to_parent of fp8: {r['ratio_to_parent']}")
    p = subprocess.run([mlab, "export", path, other, "--format=json"], capture_output=True, text=True)
    j = json.loads(p.stdout)
    check(j["columns"] == list(recs[0].keys()) and len(j["rows"]) == len(recs),
          "JSON columns/rows differ from the CSV")
    for jr, cr in zip(j["rows"], recs):
        for k, v in cr.items():
            jv = jr[k]
            ok = (jv is None and v in ("nan", "inf", "-inf")) or str(jv) == v or (
                isinstance(jv, (int, float)) and same_float(float(v), float(jv)))
            check(ok, f"JSON {k}: {jv!r} vs CSV {v!r}")
            if len(FAILURES) > 20:
                break
    lab = os.path.join(tmp, "lab.h5")
    p = subprocess.run([mlab, "run", "--cpu-only", "--no-time", "--label", "rocm-6.4", "-o", lab],
                       capture_output=True, text=True)
    p2 = subprocess.run([mlab, "export", lab], capture_output=True, text=True)
    check(p.returncode == 0 and all(r["label"] == "rocm-6.4"
                                    for r in csv.DictReader(io.StringIO(p2.stdout))),
          f"run --label: {p.returncode} {p.stderr}")
    return finish("test_results_export", tmp, limit=30)


if __name__ == "__main__":
    sys.exit(main())
