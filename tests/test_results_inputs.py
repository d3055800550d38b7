#!/usr/bin/env python3
"""test_results_inputs.py: `mlabench run` records the SHA-256 of each input
tensor (harness/tensor_hash.c), and `compare` checks them.

Pins:
  - /inputs of a run holds, per case, the SHA-256 of q, kv_bf16, kv_fp8
    followed by its 4-byte float32 scale, kv_mxfp4 (kv_fp4), kv_mxfp4_scale
    (kv_e8m0), qo_indptr and kv_indptr, equal to hashlib's over the bytes
    h5py reads from the case file; sha256 is the hash of the seven hex
    digests joined by newlines;
  - the same tensors in another file (a copy under another name) hash equal,
    and so do the embedded default case's in two runs;
  - a case whose one q value was changed (same name) hashes differently in q
    only, and `compare` of the two runs exits 9 naming q.
Usage: test_results_inputs.py   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no h5py / numpy).
"""
import hashlib
import os
import shutil
import subprocess
import sys

from mlabtest import check, finish, programs, scratch

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

TENSORS = [("q", "q"), ("kv_bf16", "kv_bf16"), ("kv_fp8", "kv_fp8"), ("kv_fp4", "kv_mxfp4"),
           ("kv_e8m0", "kv_mxfp4_scale"), ("qo_indptr", "qo_indptr"), ("kv_indptr", "kv_indptr")]


def main():
    _, mlab = programs()
    tmp = scratch("inputs")

    def run(*args):
        p = subprocess.run([mlab, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    case = os.path.join(tmp, "c.h5")
    rc, out, err = run("gen", "--batch", "3", "--kv-lens", "40,0,77", "-o", case)
    check(rc == 0, f"gen: exit {rc}\n{err}")
    copy = os.path.join(tmp, "copy_of_c.h5")
    shutil.copy(case, copy)
    r1, r2 = os.path.join(tmp, "r1.h5"), os.path.join(tmp, "r2.h5")
    rc1, _, e1 = run("run", "--cpu-only", "--no-time", case, "-o", r1)
    rc2, _, e2 = run("run", "--cpu-only", "--no-time", copy, "-o", r2)
    check(rc1 == 0 and rc2 == 0, f"run: exit {rc1} {rc2}\n{e1}{e2}")
    if rc1 or rc2:
        return finish("test_results_inputs", tmp)

    with h5py.File(r1, "r") as f1:
        if not f1["inputs"][0]["q_sha256"]:
            print("SKIP: built without OpenSSL libcrypto: no tensor hashes recorded")
            return 77
    with h5py.File(case, "r") as f:
        want = {}
        for name, ds in TENSORS:
            b = f[ds][...].tobytes()
            if name == "kv_fp8":
                b += np.asarray(f["kv_fp8_scale"][...], dtype="<f4").reshape(-1)[:1].tobytes()
            want[name] = hashlib.sha256(b).hexdigest()
    joined = "".join(want[n] + "\n" for n, _ in TENSORS).encode()
    with h5py.File(r1, "r") as f1, h5py.File(r2, "r") as f2:
        i1, i2 = f1["inputs"][0], f2["inputs"][0]
        for name, _ in TENSORS:
            got = i1[name + "_sha256"].decode()
            check(got == want[name], f"{name}: {got} != hashlib's {want[name]}")
            check(i2[name + "_sha256"].decode() == got, f"{name}: a copy hashes differently")
        check(i1["sha256"].decode() == hashlib.sha256(joined).hexdigest(),
              "sha256 is not the hash of the seven digests")
        check(i1["path"].decode() != i2["path"].decode(), "paths should differ")

    rc, out, err = run("compare", r1, r2)
    check(rc == 0 and "inputs-differ" not in out, f"same tensors, other file: exit {rc}\n{out}{err}")

    d1, d2 = os.path.join(tmp, "d1.h5"), os.path.join(tmp, "d2.h5")
    run("run", "--cpu-only", "--no-time", "-o", d1)
    run("run", "--cpu-only", "--no-time", "-o", d2)
    with h5py.File(d1, "r") as f1, h5py.File(d2, "r") as f2:
        check(f1["inputs"][0]["q_sha256"] == f2["inputs"][0]["q_sha256"]
              and len(f1["inputs"][0]["q_sha256"]) == 64, "the default case hashes differ")

    changed = os.path.join(tmp, "changed.h5")
    shutil.copy(case, changed)
    with h5py.File(changed, "r+") as f:
        q = f["q"][...]
        q.reshape(-1)[5] ^= 1  # one bf16 mantissa bit: still finite
        f["q"][...] = q
    r3 = os.path.join(tmp, "r3.h5")
    rc, _, err = run("run", "--cpu-only", "--no-time", changed, "-o", r3)
    check(rc == 0, f"run changed: exit {rc}\n{err}")
    rc, out, err = run("compare", r1, r3)
    check(rc == 9 and "inputs: q differ" in out, f"changed q: exit {rc}, want 9 naming q\n{out}{err}")
    return finish("test_results_inputs", tmp)


if __name__ == "__main__":
    sys.exit(main())
