#!/usr/bin/env python3
"""test_import.py: `mlabench import` turns a file of one's own tensors
(/q, /kv_bf16, /qo_indptr, /kv_indptr written by h5py, nothing else) into a
complete case file.

Pins:
  - a bare file with bf16 stored as uint16 views (+ dtype attributes) and a
    bare file with ml_dtypes bfloat16 arrays (h5py opaque types) both import;
    q and kv come back bit for bit; `check --requant` finds 0 differing bytes
    of fp8 / MXFP4 / scales against mlabench's quantizers (and exit 5 on an
    output with one fp8 byte flipped: the check can fail); /ref_out agrees
    with a float64 numpy attention; `run --cpu-only` runs the output;
  - --fp8 e4m3fnuz --tie even are applied and named (_even_fnuz), --no-ref
    stores no /ref_out, --name wins;
  - a gen file stripped to the four tensors and its seed imports to gen's
    name and gen's exact fp8 / MXFP4 bytes (one naming rule, one quantizer);
  - errors: missing /kv_bf16 (3), /kv_bf16 of the wrong shape (3), a missing
    input (4), -o onto the input (2, input untouched), an output that is a
    folder (2), a bad --fp8 (2); each one line naming the file and dataset.
Exit 0 pass, 1 fail, 77 skip ($MLAB_BIN missing, or no h5py / ml_dtypes).
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from mlabtest import bin_or_skip

BIN = bin_or_skip("h5py", "ml_dtypes", "numpy")
import h5py  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

HEADS, DQK, DV = 16, 576, 512
FAILURES = []


def check(ok, what, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILURES.append(what)


def mlab(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def tensors(rng, kv_lens, q_rows):
    tq, tkv = sum(q_rows), sum(kv_lens)
    q = rng.standard_normal((tq, HEADS, DQK), dtype=np.float32).astype(ml_dtypes.bfloat16)
    kv = rng.standard_normal((tkv, 1, DQK), dtype=np.float32).astype(ml_dtypes.bfloat16)
    qo = np.concatenate([[0], np.cumsum(q_rows)]).astype(np.int32)
    kvp = np.concatenate([[0], np.cumsum(kv_lens)]).astype(np.int32)
    return q, kv, qo, kvp


def write_bare(path, q, kv, qo, kvp, style, drop=None, kv_shape=None, attrs=None):
    with h5py.File(path, "w") as f:
        for k, v in (attrs or {}).items():
            f.attrs[k] = v
        for name, arr in (("q", q), ("kv_bf16", kv)):
            if name == drop:
                continue
            if name == "kv_bf16" and kv_shape is not None:
                arr = arr.reshape(kv_shape)
            if style == "u16":  # what `t.view(torch.int16).numpy().view(np.uint16)` gives
                d = f.create_dataset(name, data=arr.view(np.uint16))
                d.attrs["dtype"] = "bfloat16"
            else:  # ml_dtypes bfloat16: h5py stores an opaque type
                f.create_dataset(name, data=arr)
        f.create_dataset("qo_indptr", data=qo)
        f.create_dataset("kv_indptr", data=kvp)


def ref_attention(q, kv, qo, kvp):
    """float64 softmax(q k^T / sqrt(576)) v, causal bottom-right."""
    qf = q.astype(np.float64)
    kf = kv.astype(np.float64)[:, 0, :]
    out = np.zeros((q.shape[0], HEADS, DV))
    for b in range(len(qo) - 1):
        n, L = qo[b + 1] - qo[b], kvp[b + 1] - kvp[b]
        k = kf[kvp[b]:kvp[b + 1]]
        for i in range(n):
            vis = L - n + i + 1
            if vis <= 0:
                continue
            s = qf[qo[b] + i] @ k[:vis].T / np.sqrt(DQK)
            p = np.exp(s - s.max(axis=1, keepdims=True))
            out[qo[b] + i] = (p @ k[:vis, :DV]) / p.sum(axis=1, keepdims=True)
    return out


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def main():
    rng = np.random.default_rng(20261201)
    tmp = tempfile.mkdtemp(prefix="mlab_import_")
    q, kv, qo, kvp = tensors(rng, [40, 0, 23], [1, 1, 2])

    # ---- both storage styles import, bits kept, quantizers agree ------------
    for style, extra, want_name in (("u16", [], "mine_u16"),
                                    ("ml", ["--fp8", "e4m3fnuz", "--tie", "even"], "mine_ml_even_fnuz")):
        src = os.path.join(tmp, f"mine_{style}.h5")
        out = os.path.join(tmp, f"out_{style}.h5")
        write_bare(src, q, kv, qo, kvp, style)
        rc, so, se = mlab("import", src, "-o", out, *extra)
        check(rc == 0, f"{style}: import exits 0", se)
        if rc:
            continue
        with h5py.File(out, "r") as f:
            check(f.attrs["name"] == want_name, f"{style}: named {want_name}", f.attrs["name"])
            check(np.array_equal(f["q"][()], q.view(np.uint16)), f"{style}: /q bit for bit")
            check(np.array_equal(f["kv_bf16"][()], kv.view(np.uint16)), f"{style}: /kv_bf16 bit for bit")
            check(f.attrs["batch"] == 3 and f.attrs["kv_len"] == -1 and f.attrs["q_seq_len"] == -1,
                  f"{style}: batch 3, varying lengths stated")
            fmt = "float8_e4m3fnuz" if extra else "float8_e4m3fn"
            check(f.attrs["fp8_format"] == fmt and f.attrs["mxfp4_tie"] == ("even" if extra else "up"),
                  f"{style}: fp8 flavour and tie rule as asked")
            check(abs(float(f.attrs["sm_scale"]) - 1 / np.sqrt(DQK)) < 1e-7, f"{style}: sm_scale 1/sqrt(576)")
            scale = float(np.asarray(f["kv_fp8_scale"][()]).reshape(-1)[0])
            amax = float(np.abs(kv.astype(np.float32)).max())
            fmax = 240.0 if extra else 448.0
            check(abs(scale - amax / fmax) <= 0.01 * amax / fmax, f"{style}: fp8 scale = amax / {fmax:g}",
                  f"{scale} vs {amax / fmax}")
            ref = f["ref_out"][()].view(ml_dtypes.bfloat16).astype(np.float64) if "ref_out" in f else None
        check(ref is not None, f"{style}: /ref_out stored")
        if ref is not None:
            want = ref_attention(q, kv, qo, kvp)
            err = np.abs(ref - want).max()
            check(err <= 2 ** -7 * np.abs(want).max() + 1e-6, f"{style}: /ref_out = float64 attention "
                  "within bf16 rounding", f"max abs err {err}")
        rc, so, se = mlab("check", "--requant", out)
        check(rc == 0 and "kv_fp8 0/" in so and "kv_mxfp4 0/" in so and "kv_mxfp4_scale 0/" in so
              and "kv_fp8_scale equal" in so, f"{style}: check --requant finds every derived byte equal",
              so + se)
        rc, so, se = mlab("run", "--cpu-only", "--no-time", "--quiet", out)
        check(rc == 0 and want_name in so, f"{style}: run --cpu-only runs the output", so[-400:] + se)

    # ---- the check can fail: one fp8 byte flipped ----------------------------
    bad = os.path.join(tmp, "tampered.h5")
    good = os.path.join(tmp, "out_u16.h5")
    if os.path.exists(good):
        with h5py.File(good, "r") as f, h5py.File(bad, "w") as g:
            for k, v in f.attrs.items():
                g.attrs[k] = v
            for k in f:
                a = f[k][()]
                if k == "kv_fp8":
                    a = a.copy()
                    a[0, 0, 5] ^= 0x01
                d = g.create_dataset(k, data=a)
                for ak, av in f[k].attrs.items():
                    d.attrs[ak] = av
        rc, so, se = mlab("check", "--requant", bad)
        check(rc == 5 and "kv_fp8 1/" in so, "check --requant exits 5 on one flipped fp8 byte", so + se)

    # ---- --no-ref, --name ----------------------------------------------------
    src = os.path.join(tmp, "mine_u16.h5")
    out = os.path.join(tmp, "noref.h5")
    rc, so, se = mlab("import", src, "-o", out, "--no-ref", "--name", "llama_layer3")
    check(rc == 0, "--no-ref --name: exits 0", se)
    if rc == 0:
        with h5py.File(out, "r") as f:
            check("ref_out" not in f and f.attrs["name"] == "llama_layer3", "--no-ref stores no /ref_out; --name wins")

    # ---- a stripped gen file: gen's name and gen's bytes ---------------------
    gen = os.path.join(tmp, "gen.h5")
    rc, so, se = mlab("gen", "--batch", "2", "--kv-len", "37", "--q-seq-len", "2", "--seed", "9",
                      "--tie", "even", "--quiet", "-o", gen)
    check(rc == 0, "gen a small case", se)
    stripped = os.path.join(tmp, "stripped.h5")
    with h5py.File(gen, "r") as f, h5py.File(stripped, "w") as g:
        g.attrs["seed"] = f.attrs["seed"]
        for k in ("q", "kv_bf16", "qo_indptr", "kv_indptr"):
            g.create_dataset(k, data=f[k][()])
        gen_name = f.attrs["name"]
    out = os.path.join(tmp, "reimported.h5")
    rc, so, se = mlab("import", stripped, "--tie", "even", "--no-ref", "-o", out)
    check(rc == 0, "stripped gen file imports", se)
    if rc == 0:
        with h5py.File(gen, "r") as f, h5py.File(out, "r") as g:
            check(g.attrs["name"] == gen_name, f"named as gen names it ({gen_name})", g.attrs["name"])
            for k in ("kv_fp8", "kv_fp8_scale", "kv_mxfp4", "kv_mxfp4_scale", "q", "kv_bf16"):
                check(np.array_equal(f[k][()], g[k][()]), f"/{k} equals gen's")

    # ---- errors ---------------------------------------------------------------
    nokv = os.path.join(tmp, "nokv.h5")
    write_bare(nokv, q, kv, qo, kvp, "u16", drop="kv_bf16")
    rc, so, se = mlab("import", nokv, "-o", os.path.join(tmp, "x.h5"))
    check(rc == 3 and "nokv.h5" in se and "/kv_bf16" in se and "missing" in se and se.count("\n") == 1,
          "missing /kv_bf16: exit 3, one line naming file and dataset", se)
    shape = os.path.join(tmp, "shape.h5")
    write_bare(shape, q, np.zeros((kv.shape[0], 2, DQK // 2), ml_dtypes.bfloat16), qo, kvp, "u16")
    rc, so, se = mlab("import", shape, "-o", os.path.join(tmp, "x.h5"))
    check(rc == 3 and "shape.h5" in se and "/kv_bf16" in se and "dims" in se and se.count("\n") == 1,
          "/kv_bf16 of the wrong shape: exit 3, one line", se)
    # what is present beyond the four is checked as usual; no attribute batch needs /qo_indptr
    for fname, edit, want in (
            ("fp8shape", lambda f: f.create_dataset("kv_fp8", data=np.zeros((kv.shape[0] - 1, 1, DQK), np.uint8)),
             "/kv_fp8: dims"),
            ("noqo", lambda f: f.__delitem__("qo_indptr"), "/qo_indptr: missing"),
            ("qorank", lambda f: (f.__delitem__("qo_indptr"), f.create_dataset("qo_indptr", data=qo[None, :])),
             "/qo_indptr: rank 2"),
            ("tiebad", lambda f: f.attrs.__setitem__("mxfp4_tie", "odd"), "attribute mxfp4_tie")):
        path = os.path.join(tmp, fname + ".h5")
        write_bare(path, q, kv, qo, kvp, "u16")
        with h5py.File(path, "a") as f:
            edit(f)
        rc, so, se = mlab("import", path, "-o", os.path.join(tmp, "x.h5"))
        check(rc == 3 and f"{fname}.h5: {want}" in se and se.count("\n") == 1, f"{fname}: exit 3, '{want}'", se)
    rc, so, se = mlab("import", os.path.join(tmp, "absent.h5"), "-o", os.path.join(tmp, "x.h5"))
    check(rc == 4 and "absent.h5" in se, "missing input file: exit 4", se)
    before = sha(src)
    rc, so, se = mlab("import", src, "-o", src)
    check(rc == 2 and sha(src) == before, "-o onto the input: exit 2, input untouched", se)
    folder = os.path.join(tmp, "afolder")
    os.mkdir(folder)
    rc, so, se = mlab("import", src, "-o", folder)
    check(rc == 2 and os.path.isdir(folder) and "afolder" in se, "-o onto a folder: exit 2, folder kept", se)
    rc, so, se = mlab("import", src, "-o", os.path.join(tmp, "y.h5"), "--fp8", "e5m2")
    check(rc == 2 and not os.path.exists(os.path.join(tmp, "y.h5")), "bad --fp8: exit 2, nothing written", se)
    check(not os.path.exists(os.path.join(tmp, "x.h5")), "no output left by the failed imports")

    shutil.rmtree(tmp, ignore_errors=True)
    print(f"test_import: {'FAIL: ' + '; '.join(FAILURES) if FAILURES else 'pass'}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
