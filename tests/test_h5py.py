#!/usr/bin/env python3
"""test_h5py.py: case files cross between the C code and h5py, both ways.

Pins:
  (a) a file written by mlab_h5_write_case (tests/h5io_tool write-sample)
      opens in h5py: string attributes come back as str, integers and floats
      with their schema types, every dataset has its schema dtype and shape,
      and every value equals the sample formula (mirrored from h5io_tool.c);
      the bf16/fp8/e8m0 views through ml_dtypes work; h5dump reads it too;
  (b) files written by h5py in the schema are read by mlab_h5_read_case bit
      for bit, in four flavours: plain little-endian uint views; ml_dtypes
      arrays (h5py stores them as HDF5 opaque types); big-endian integers with
      fixed-length string attributes, int64/float64 attributes and a scalar
      kv_fp8_scale; chunked + gzip-compressed datasets;
Usage: test_h5py.py [PATH/TO/h5io_tool]  (default $MLAB_BUILD/tests/h5io_tool)
Exit 0 pass, 1 fail, 77 skip (no h5py / numpy / ml_dtypes).
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import h5py
    import ml_dtypes
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

HEADS, DQK, DV, FP4_ROW, NBLK = 16, 576, 512, 288, 18
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"  FAIL: {what}")


def tool_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    return os.path.join(os.environ.get("MLAB_BUILD", "build-h5"), "tests", "h5io_tool")


def run_tool(tool, *args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for x in bytes(b):
        h = ((h ^ x) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def f32_hex(v):
    return "0x%08x" % np.array(v, dtype=np.float32).view(np.uint32)


def parse_digest(text):
    return dict(line.split(" ", 1) for line in text.splitlines() if line)


# ---- the schema written from Python (shared with test_badinput.py) --------

def random_case(seed=7, qo=(0, 1, 3, 4), kv=(0, 5, 5, 12), ref=True, fp8="float8_e4m3fn"):
    """A valid case as plain little-endian arrays + root attributes."""
    rng = np.random.default_rng(seed)
    tq, tkv, batch = qo[-1], kv[-1], len(qo) - 1

    def bf16(*shape):
        return rng.standard_normal(shape, dtype=np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)

    fp8_t = getattr(ml_dtypes, fp8)
    ds = {
        "q": bf16(tq, HEADS, DQK),
        "kv_bf16": bf16(tkv, 1, DQK),
        "kv_fp8": (rng.standard_normal((tkv, 1, DQK), dtype=np.float32) * 50).astype(fp8_t).view(np.uint8),
        "kv_fp8_scale": np.array([0.0123], dtype=np.float32),
        "kv_mxfp4": rng.integers(0, 256, (tkv, 1, FP4_ROW), dtype=np.uint8),
        "kv_mxfp4_scale": rng.integers(0, 255, (tkv, NBLK), dtype=np.uint8),
        "qo_indptr": np.array(qo, dtype=np.int32),
        "kv_indptr": np.array(kv, dtype=np.int32),
    }
    if ref:
        ds["ref_out"] = bf16(tq, HEADS, DV)

    def uniform(p):
        d = np.diff(p)
        return int(d[0]) if np.all(d == d[0]) else -1

    attrs = {
        "format": "mlabench-case", "format_version": 1, "name": f"py_{seed}",
        "batch": batch, "q_seq_len": uniform(qo), "kv_len": uniform(kv),
        "num_heads": 16, "num_kv_heads": 1, "qk_head_dim": 576, "v_head_dim": 512,
        "kv_lora_rank": 512, "qk_rope_head_dim": 64,
        "sm_scale": np.float32(1 / 24), "seed": np.uint64(2**63 + seed),
        "input_scale": np.float32(1.0), "mxfp4_tie": "up", "fp8_format": fp8,
        "producer": "test_h5py.py", "commit": "unknown",
    }
    return ds, attrs


DTYPE_ATTR = {"q": "bfloat16", "kv_bf16": "bfloat16", "ref_out": "bfloat16",
              "kv_mxfp4": "float4_e2m1fn_x2", "kv_mxfp4_scale": "float8_e8m0fnu"}


def write_case(path, ds, attrs, flavour="uint", ds_attrs=True):
    """Write ds/attrs in the schema. flavour: "uint" (little-endian uint
    views), "ml_dtypes" (opaque types, as h5py stores ml_dtypes arrays),
    "bigendian" (big-endian integers, fixed-length strings, int64/float64
    attributes, scalar kv_fp8_scale), "gzip" (chunked + deflate)."""
    fp8 = attrs.get("fp8_format", "float8_e4m3fn")
    with h5py.File(path, "w") as f:
        for k, v in attrs.items():
            if flavour == "bigendian" and isinstance(v, str):
                f.attrs[k] = np.bytes_(v)  # fixed-length, NULL-padded
            elif flavour == "bigendian" and k == "sm_scale":
                f.attrs[k] = float(v)  # float64
            elif flavour == "bigendian" and isinstance(v, (int, np.integer)) and k != "seed":
                f.attrs[k] = np.int64(v)
            else:
                f.attrs[k] = v
        for name, a in ds.items():
            kw = {}
            if flavour == "ml_dtypes":
                if name in ("q", "kv_bf16", "ref_out"):
                    a = a.view(ml_dtypes.bfloat16)
                elif name == "kv_fp8":
                    a = a.view(getattr(ml_dtypes, fp8))
                elif name == "kv_mxfp4_scale":
                    a = a.view(ml_dtypes.float8_e8m0fnu)
                elif name == "kv_mxfp4":
                    a = a.view("V1")
            elif flavour == "bigendian":
                if name == "kv_fp8_scale":
                    a = np.float32(a.reshape(-1)[0])  # scalar dataspace
                elif a.dtype.kind in "ui":
                    a = a.astype(a.dtype.newbyteorder(">"))
            elif flavour == "gzip" and a.ndim > 0 and a.size > 0:
                kw = dict(chunks=tuple(max(1, min(s, 64)) for s in a.shape), compression="gzip")
            d = f.create_dataset(name, data=a, **kw)
            if ds_attrs:
                if name == "kv_fp8":
                    d.attrs["dtype"] = fp8
                elif name in DTYPE_ATTR:
                    d.attrs["dtype"] = DTYPE_ATTR[name]
                if name == "kv_mxfp4":
                    d.attrs["nibble_order"] = "low_nibble_first_even_index"
                if name == "kv_mxfp4_scale":
                    d.attrs["block_size"] = 32
                if name == "ref_out":
                    d.attrs["how"] = "random bits from test_h5py.py"


def expected_digest(ds, attrs):
    le = {k: np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<")).tobytes() for k, v in ds.items()}
    return {
        "name": attrs["name"], "batch": str(attrs["batch"]),
        "q_seq_len": str(attrs["q_seq_len"]), "kv_len": str(attrs["kv_len"]),
        "total_q": str(ds["q"].shape[0]), "total_kv": str(ds["kv_bf16"].shape[0]),
        "sm_scale": f32_hex(attrs["sm_scale"]), "input_scale": f32_hex(attrs["input_scale"]),
        "kv_fp8_scale": f32_hex(ds["kv_fp8_scale"][0]), "seed": str(int(attrs["seed"])),
        "fp8_format": attrs["fp8_format"], "mxfp4_tie": attrs["mxfp4_tie"],
        "producer": attrs["producer"], "commit": attrs["commit"],
        "qo_indptr": ",".join(map(str, ds["qo_indptr"])),
        "kv_indptr": ",".join(map(str, ds["kv_indptr"])),
        "q": fnv1a64(le["q"]), "kv_bf16": fnv1a64(le["kv_bf16"]), "kv_fp8": fnv1a64(le["kv_fp8"]),
        "kv_mxfp4": fnv1a64(le["kv_mxfp4"]), "kv_mxfp4_scale": fnv1a64(le["kv_mxfp4_scale"]),
        "ref_out": fnv1a64(le["ref_out"]) if "ref_out" in ds else "none",
    }


# ---- (a) C writes, h5py reads ----------------------------------------------

def sample_hash(salt, n):
    i = np.arange(n, dtype=np.uint64)
    k = (i + np.uint64(salt * 0x9E3779B9)) & np.uint64(0xFFFFFFFF)
    return (k * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)


def sample_bf16(salt, shape):
    v = (sample_hash(salt, int(np.prod(shape))) >> np.uint64(16)).astype(np.uint16)
    v = np.where((v & 0x7F80) == 0x7F80, v & 0xBFFF, v).astype(np.uint16)
    return v.reshape(shape)


def sample_expect(fnuz):
    tq, tkv = 4, 12
    fp8 = (sample_hash(4, tkv * DQK) >> np.uint64(24)).astype(np.uint8)
    if fnuz:
        fp8[fp8 == 0x80] = 0
    else:
        fp8 = np.where((fp8 & 0x7F) == 0x7F, fp8 ^ 1, fp8).astype(np.uint8)
    e8 = (sample_hash(6, tkv * NBLK) >> np.uint64(24)).astype(np.uint8)
    e8[e8 == 255] = 254
    return {
        "q": sample_bf16(1, (tq, HEADS, DQK)),
        "kv_bf16": sample_bf16(2, (tkv, 1, DQK)),
        "ref_out": sample_bf16(3, (tq, HEADS, DV)),
        "kv_fp8": fp8.reshape(tkv, 1, DQK),
        "kv_mxfp4": (sample_hash(5, tkv * FP4_ROW) >> np.uint64(24)).astype(np.uint8).reshape(tkv, 1, FP4_ROW),
        "kv_mxfp4_scale": e8.reshape(tkv, NBLK),
        "qo_indptr": np.array([0, 1, 3, 4], np.int32),
        "kv_indptr": np.array([0, 5, 5, 12], np.int32),
        "kv_fp8_scale": np.array([0.0123], np.float32),
    }


def test_c_to_h5py(tool, tmp):
    for opts, fnuz, tie, ref in (([], False, "up", True), (["--fnuz", "--tie", "even", "--no-ref"], True, "even", False)):
        label = " ".join(opts) or "default"
        print(f"(a) C-written sample ({label}) reads in h5py: types, shapes, every value")
        path = os.path.join(tmp, "c_sample.h5")
        rc, out, err = run_tool(tool, "write-sample", path, *opts)
        check(rc == 0, f"write-sample {label}: rc {rc}: {err.strip()}")
        if rc != 0:
            continue
        fp8 = "float8_e4m3fnuz" if fnuz else "float8_e4m3fn"
        with h5py.File(path, "r") as f:
            a = f.attrs
            for k, want in (("format", "mlabench-case"), ("name", "sample"), ("mxfp4_tie", tie),
                            ("fp8_format", fp8), ("producer", "h5io_tool write-sample"),
                            ("commit", "0123abcd")):
                check(isinstance(a.get(k), str) and a.get(k) == want,
                      f"attribute {k} = {a.get(k)!r} ({type(a.get(k)).__name__}), want str {want!r}")
            for k, want in (("format_version", 1), ("batch", 3), ("q_seq_len", -1), ("kv_len", -1),
                            ("num_heads", 16), ("num_kv_heads", 1), ("qk_head_dim", 576),
                            ("v_head_dim", 512), ("kv_lora_rank", 512), ("qk_rope_head_dim", 64)):
                check(a.get(k) == want and np.asarray(a.get(k)).dtype == np.int32,
                      f"attribute {k} = {a.get(k)!r}, want int32 {want}")
            check(np.asarray(a["seed"]).dtype == np.uint64 and int(a["seed"]) == 0xFEDCBA9876543210,
                  f"seed = {a['seed']!r}")
            check(np.asarray(a["sm_scale"]).dtype == np.float32 and a["sm_scale"] == np.float32(1 / 24),
                  f"sm_scale = {a['sm_scale']!r}")
            check(a["input_scale"] == np.float32(0.02), f"input_scale = {a['input_scale']!r}")
            exp = sample_expect(fnuz)
            if not ref:
                del exp["ref_out"]
            check(("ref_out" in f) == ref, "ref_out presence")
            check(set(f.keys()) == set(exp), f"datasets {sorted(f.keys())}")
            for name, want in exp.items():
                if name not in f:
                    continue
                d = f[name]
                got = d[...]
                check(got.dtype == want.dtype and got.shape == want.shape,
                      f"/{name}: {got.dtype} {got.shape}, want {want.dtype} {want.shape}")
                if got.shape == want.shape:
                    bad = int(np.count_nonzero(got != want))
                    check(bad == 0, f"/{name}: {bad} values differ from the sample formula")
            check(f["kv_fp8"].attrs["dtype"] == fp8, "/kv_fp8 dtype attribute")
            check(f["kv_mxfp4"].attrs["nibble_order"] == "low_nibble_first_even_index", "nibble_order")
            check(int(f["kv_mxfp4_scale"].attrs["block_size"]) == 32, "block_size")
            q = f["q"][...].view(ml_dtypes.bfloat16).astype(np.float32)
            k8 = f["kv_fp8"][...].view(getattr(ml_dtypes, fp8)).astype(np.float32)
            e8 = f["kv_mxfp4_scale"][...].view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
            check(np.all(np.isfinite(q)) and np.all(np.isfinite(k8)) and np.all(np.isfinite(e8)),
                  "ml_dtypes views: non-finite values")
        h5dump = shutil.which("h5dump")
        if h5dump:
            p = subprocess.run([h5dump, "-H", path], capture_output=True, text=True)
            check(p.returncode == 0 and "mlabench-case" not in p.stderr, f"h5dump -H: rc {p.returncode}")
            p = subprocess.run([h5dump, "-a", "/format", path], capture_output=True, text=True)
            check(p.returncode == 0 and '"mlabench-case"' in p.stdout, "h5dump -a /format")
        else:
            print("  note: h5dump not found, not checked")
        # the C reader agrees with itself on its own file
        rc, out, err = run_tool(tool, "read", path)
        check(rc == 0, f"read back: rc {rc}: {err.strip()}")
        if rc == 0:
            d = parse_digest(out)
            for name in ("q", "kv_bf16", "kv_fp8", "kv_mxfp4", "kv_mxfp4_scale"):
                check(d[name] == fnv1a64(exp[name].tobytes()), f"read back /{name} bits")


# ---- (b) h5py writes, C reads ----------------------------------------------

def test_h5py_to_c(tool, tmp):
    cases = [
        ("uint", dict(seed=1)),
        ("ml_dtypes", dict(seed=2)),
        ("ml_dtypes", dict(seed=3, fp8="float8_e4m3fnuz", ref=False)),
        ("bigendian", dict(seed=4)),
        ("gzip", dict(seed=5, qo=(0, 2, 4), kv=(0, 33, 66))),
    ]
    for flavour, kw in cases:
        print(f"(b) h5py-written file ({flavour}, {kw}) reads in C bit for bit")
        ds, attrs = random_case(**kw)
        path = os.path.join(tmp, f"py_{flavour}.h5")
        write_case(path, ds, attrs, flavour)
        rc, out, err = run_tool(tool, "read", path)
        check(rc == 0, f"{flavour}: rc {rc}: {err.strip()}")
        if rc != 0:
            continue
        got, want = parse_digest(out), expected_digest(ds, attrs)
        for k, v in want.items():
            check(got.get(k) == v, f"{flavour}: {k} = {got.get(k)!r}, want {v!r}")

    print("(b) a file with a 512-byte user block (HDF5 signature at offset 512) reads")
    ds, attrs = random_case(seed=8)
    path = os.path.join(tmp, "userblock.h5")
    write_case(path + ".plain", ds, attrs, "uint")
    with h5py.File(path + ".plain", "r") as src, h5py.File(path, "w", userblock_size=512) as dst:
        for k, v in src.attrs.items():
            dst.attrs[k] = v
        for k in src:
            src.copy(k, dst)
    with open(path, "r+b") as fh:
        fh.write(b"user block: not HDF5".ljust(512, b"\0"))
    rc, out, err = run_tool(tool, "read", path)
    check(rc == 0, f"user block: rc {rc}: {err.strip()}")
    if rc == 0:
        check(parse_digest(out)["kv_bf16"] == expected_digest(ds, attrs)["kv_bf16"], "user block: /kv_bf16 bits")

    print("(b) without the optional attributes, names come from the file and lengths from the indptrs")
    ds, attrs = random_case(seed=9, qo=(0, 1, 2), kv=(0, 3, 6))
    for k in ("name", "q_seq_len", "kv_len", "seed", "input_scale", "producer", "commit",
              "num_heads", "qk_head_dim"):
        del attrs[k]
    path = os.path.join(tmp, "minimal_case.h5")
    write_case(path, ds, attrs, "uint", ds_attrs=False)
    rc, out, err = run_tool(tool, "read", path)
    check(rc == 0, f"minimal: rc {rc}: {err.strip()}")
    if rc == 0:
        d = parse_digest(out)
        check(d["name"] == "minimal_case" and d["q_seq_len"] == "1" and d["kv_len"] == "3"
              and d["producer"] == "unknown" and d["seed"] == "0", f"minimal defaults: {d}")


def main():
    tool = tool_path()
    if not os.path.exists(tool):
        print(f"FAIL: h5io_tool not found at {tool}")
        return 1
    with tempfile.TemporaryDirectory(prefix="mlab_test_h5py_") as tmp:
        test_c_to_h5py(tool, tmp)
        test_h5py_to_c(tool, tmp)
    print(f"{'FAILED' if FAILURES else 'ok'}: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
