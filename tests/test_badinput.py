#!/usr/bin/env python3
"""test_badinput.py: the case reader refuses malformed files with exit 3
(exit 4 for a file the OS cannot give us) and one line that names the file
and the dataset or attribute at fault.

Each row of MATRIX builds one bad file with h5py (or by hand) and pins one
refusal, e.g. "rejects kv_indptr that decreases". The matrix runs through
tests/h5io_tool read (exit = mlab_h5_read_case's code, message on stderr as
"h5io_tool: <why>") and, when $MLAB_BIN exists and `$MLAB_BIN check --help`
exits 0, through `$MLAB_BIN check FILE` too (else that half is skipped with a
note). A valid file is run first, so a reader that refuses everything fails.
Usage: test_badinput.py [PATH/TO/h5io_tool]  (default $MLAB_BUILD/tests/h5io_tool)
Exit 0 pass, 1 fail, 77 skip (no h5py / numpy / ml_dtypes).
"""
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import ml_dtypes  # noqa: F401  (test_h5py's writer uses it)
    import numpy as np
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_h5py import random_case, write_case  # noqa: E402

BADINPUT, IO = 3, 4


def good(path, mutate=None, flavour="uint"):
    """Write a valid case (batch 3, kv rows 4,0,5), after mutate(ds, attrs)."""
    ds, attrs = random_case(seed=11, qo=(0, 1, 2, 3), kv=(0, 4, 4, 9))
    if mutate:
        mutate(ds, attrs)
    write_case(path, ds, attrs, flavour)


def setter(**changes):
    """mutate() that replaces datasets (arrays) or root attributes."""
    def m(ds, attrs):
        for k, v in changes.items():
            if k.startswith("attr_"):
                if v is None:
                    del attrs[k[5:]]
                else:
                    attrs[k[5:]] = v
            elif v is None:
                del ds[k]
            else:
                ds[k] = v(ds[k]) if callable(v) else v
    return m


def with_value(name, index, value):
    def f(a):
        a = a.copy()
        a.reshape(-1)[index] = value
        return a
    return f


def truncated(path):
    good(path)
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 2])


def edit(fn):
    """Write a good file, then edit it with h5py (fn(f))."""
    def b(path):
        good(path)
        with h5py.File(path, "r+") as f:
            fn(f)
    return b


def replace_ds(name, data, **kw):
    def fn(f):
        del f[name]
        f.create_dataset(name, data=data, **kw)
    return fn


def fifo(path):
    os.mkfifo(path)


def cut(fraction):
    def b(path):
        good(path)
        data = open(path, "rb").read()
        open(path, "wb").write(data[: int(len(data) * fraction)])
    return b


def unwritten(name, shape, dtype, **kw):
    """Replace dataset name by one that declares shape but stores nothing."""
    def fn(f):
        del f[name]
        f.create_dataset(name, shape=shape, dtype=dtype, **kw)
    return edit(fn)


def external_raw(path):
    """/q's bytes in a raw file beside the .h5 (HDF5 external storage)."""
    good(path)
    raw = path + ".q.raw"
    with h5py.File(path, "r+") as f:
        q = f["q"][...]
        q.tofile(raw)
        del f["q"]
        f.create_dataset("q", shape=q.shape, dtype=q.dtype, external=[(raw, 0, q.nbytes)])


def q_moved_out(path, f):
    """Move /q of the open file f into PATH.other.h5; return (q, that file's path)."""
    other = path + ".other.h5"
    q = f["q"][...]
    del f["q"]
    with h5py.File(other, "w") as g:
        g["q"] = q
    return q, other


def external_link(path):
    good(path)
    with h5py.File(path, "r+") as f:
        _, other = q_moved_out(path, f)
        f["q"] = h5py.ExternalLink(os.path.basename(other), "q")


def soft_link(path):
    good(path)
    with h5py.File(path, "r+") as f:
        f.move("q", "stash_q")
        f["q"] = h5py.SoftLink("/stash_q")


def virtual(path):
    good(path)
    with h5py.File(path, "r+") as f:
        q, other = q_moved_out(path, f)
        layout = h5py.VirtualLayout(shape=q.shape, dtype=q.dtype)
        layout[...] = h5py.VirtualSource(other, "q", shape=q.shape)
        f.create_virtual_dataset("q", layout)


def missing_chunks(path):
    """/kv_bf16 chunked by row, only the first 5 of 9 rows ever written."""
    good(path)
    with h5py.File(path, "r+") as f:
        kv = f["kv_bf16"][...]
        del f["kv_bf16"]
        d = f.create_dataset("kv_bf16", shape=kv.shape, dtype=kv.dtype, chunks=(1, 1, 576))
        d[:5] = kv[:5]


# (what it pins, builder(path), exit code, words the message must hold)
MATRIX = [
    ("rejects a missing dataset (/kv_fp8)",
     lambda p: good(p, setter(kv_fp8=None)), BADINPUT, ["/kv_fp8", "missing"]),
    ("rejects /q stored as float32 (wrong type class)",
     lambda p: good(p, setter(q=lambda a: a.astype(np.float32))), BADINPUT, ["/q", "float32"]),
    ("rejects /q stored as float16 (right size, wrong class: HDF5 would convert values)",
     lambda p: good(p, setter(q=lambda a: a.view(np.float16))), BADINPUT, ["/q", "float16"]),
    ("rejects /q stored as uint32 (wrong size)",
     lambda p: good(p, setter(q=lambda a: a.astype(np.uint32))), BADINPUT, ["/q", "uint32"]),
    ("rejects /q stored as int16 (signed: HDF5 would clamp negatives)",
     lambda p: good(p, setter(q=lambda a: a.view(np.int16))), BADINPUT, ["/q", "int16"]),
    ("rejects /kv_bf16 with 575 dims instead of 576",
     lambda p: good(p, setter(kv_bf16=lambda a: a[..., :575].copy())), BADINPUT, ["/kv_bf16", "575"]),
    ("rejects /q of rank 2 ([total_q, 16*576])",
     lambda p: good(p, setter(q=lambda a: a.reshape(a.shape[0], -1))), BADINPUT, ["/q", "rank 2"]),
    ("rejects /kv_fp8 whose rows disagree with /kv_bf16",
     lambda p: good(p, setter(kv_fp8=lambda a: a[:-1].copy())), BADINPUT, ["/kv_fp8", "total_kv"]),
    ("rejects /kv_indptr stored as int64 (h5py's default for np.arange)",
     lambda p: good(p, setter(kv_indptr=lambda a: a.astype(np.int64))), BADINPUT, ["/kv_indptr", "int64"]),
    ("rejects kv_indptr that decreases",
     lambda p: good(p, setter(kv_indptr=np.array([0, 4, 3, 9], np.int32))), BADINPUT,
     ["/kv_indptr", "decreases"]),
    ("rejects kv_indptr past the end of the buffer",
     lambda p: good(p, setter(kv_indptr=np.array([0, 4, 12, 12], np.int32))), BADINPUT,
     ["/kv_indptr", "past the end"]),
    ("rejects kv_indptr that ends before the buffer's rows",
     lambda p: good(p, setter(kv_indptr=np.array([0, 4, 4, 8], np.int32))), BADINPUT,
     ["/kv_indptr", "must end"]),
    ("rejects qo_indptr not starting at 0",
     lambda p: good(p, setter(qo_indptr=np.array([1, 1, 2, 3], np.int32))), BADINPUT,
     ["/qo_indptr", "start at 0"]),
    ("rejects indptrs whose length disagrees with attribute batch",
     lambda p: good(p, setter(attr_batch=4)), BADINPUT, ["/qo_indptr", "batch"]),
    ("rejects a truncated file (a valid file cut in half)",
     truncated, BADINPUT, ["truncated or corrupt"]),
    ("rejects a text file (not HDF5)",
     lambda p: open(p, "w").write("batch,kv_len\n4,1024\n"), BADINPUT, ["not an HDF5 file"]),
    ("rejects an empty file",
     lambda p: open(p, "wb").close(), BADINPUT, ["not an HDF5 file"]),
    ("rejects a NaN in q (bf16 0x7FC0)",
     lambda p: good(p, setter(q=with_value("q", 777, 0x7FC0))), BADINPUT, ["/q", "non-finite"]),
    ("rejects a NaN in kv_bf16 (bf16 0x7FC0)",
     lambda p: good(p, setter(kv_bf16=with_value("kv_bf16", 1000, 0x7FC0))), BADINPUT,
     ["/kv_bf16", "non-finite"]),
    ("rejects an Inf in kv_bf16 (bf16 0xFF80), stored as an ml_dtypes array",
     lambda p: good(p, setter(kv_bf16=with_value("kv_bf16", 5, 0xFF80)), "ml_dtypes"), BADINPUT,
     ["/kv_bf16", "non-finite"]),
    ("rejects a NaN fp8 code (0x7F) in kv_fp8",
     lambda p: good(p, setter(kv_fp8=with_value("kv_fp8", 3, 0x7F))), BADINPUT, ["/kv_fp8", "NaN"]),
    ("rejects an E8M0 NaN scale (255) in kv_mxfp4_scale",
     lambda p: good(p, setter(kv_mxfp4_scale=with_value("kv_mxfp4_scale", 4, 255))), BADINPUT,
     ["/kv_mxfp4_scale", "255"]),
    ("rejects a zero kv_fp8_scale",
     lambda p: good(p, setter(kv_fp8_scale=np.array([0.0], np.float32))), BADINPUT,
     ["/kv_fp8_scale"]),
    ("rejects a wrong format attribute",
     lambda p: good(p, setter(attr_format="mlabench-results")), BADINPUT,
     ["attribute format", "mlabench-results"]),
    ("rejects a file with no format attribute",
     lambda p: good(p, setter(attr_format=None)), BADINPUT, ["attribute format", "missing"]),
    ("rejects a newer format_version with an upgrade hint",
     lambda p: good(p, setter(attr_format_version=2)), BADINPUT,
     ["format_version", "newer", "2 > 1", "upgrade"]),
    ("rejects an unknown fp8_format",
     lambda p: good(p, setter(attr_fp8_format="float8_e5m2")), BADINPUT, ["fp8_format", "float8_e5m2"]),
    ("rejects an unknown mxfp4_tie",
     lambda p: good(p, setter(attr_mxfp4_tie="down")), BADINPUT, ["mxfp4_tie", "down"]),
    ("rejects num_heads other than 16",
     lambda p: good(p, setter(attr_num_heads=128)), BADINPUT, ["num_heads", "128"]),
    ("rejects a kv_len attribute that the indptr contradicts",
     lambda p: good(p, setter(attr_kv_len=4)), BADINPUT, ["kv_len"]),
    ("rejects a /kv_fp8 dtype attribute that contradicts fp8_format",
     edit(lambda f: f["kv_fp8"].attrs.__setitem__("dtype", "float8_e4m3fnuz")), BADINPUT,
     ["/kv_fp8", "dtype", "float8_e4m3fnuz"]),
    ("rejects /q as a group instead of a dataset",
     edit(lambda f: (f.__delitem__("q"), f.create_group("q"))), BADINPUT, ["/q", "not a dataset"]),
    ("rejects a compression filter the C library lacks (h5py's lzf)",
     edit(replace_ds("q", np.zeros((3, 16, 576), np.uint16), compression="lzf", chunks=(1, 16, 576))),
     BADINPUT, ["/q", "filter"]),
    ("reports a missing file as an I/O error (exit 4)",
     None, IO, ["cannot open"]),
    # issue 15: what cannot be trusted or read safely
    ("rejects a FIFO as input at once (no hang)", fifo, BADINPUT, ["not a regular file", "FIFO"]),
    ("reports a folder as input as an I/O error", os.mkdir, IO, ["Is a directory"]),
    ("rejects a character device as input (a symlink to /dev/zero)",
     lambda p: os.symlink("/dev/zero", p), BADINPUT, ["not a regular file", "character device"]),
    ("rejects a file cut at 90%", cut(0.9), BADINPUT, ["truncated or corrupt"]),
    ("rejects a file cut after the superblock (1 KB)",
     lambda p: (good(p), open(p, "r+b").truncate(1024)), BADINPUT, ["truncated or corrupt"]),
    ("rejects /q stored in an external raw file", external_raw, BADINPUT, ["/q", "external files"]),
    ("rejects /q as an external link to another file", external_link, BADINPUT,
     ["/q", "external link"]),
    ("rejects /q as a soft link", soft_link, BADINPUT, ["/q", "soft link"]),
    ("rejects /q as a virtual dataset", virtual, BADINPUT, ["/q", "virtual dataset"]),
    ("rejects 2^22 kv rows declared in a small file (chunked, never written)",
     unwritten("kv_bf16", (2**22, 1, 576), np.uint16, chunks=(1024, 1, 576)), BADINPUT,
     ["/kv_bf16", "never written"]),
    ("rejects /kv_fp8 declared but never written (contiguous)",
     unwritten("kv_fp8", (9, 1, 576), np.uint8), BADINPUT, ["/kv_fp8", "never written"]),
    ("rejects /kv_bf16 with chunks missing (rows 5..8 never written)", missing_chunks, BADINPUT,
     ["/kv_bf16", "chunks"]),
    ("rejects /q declaring 2^28 rows (past what a case may hold)",
     unwritten("q", (2**28, 16, 576), np.uint16, chunks=(1, 16, 576)), BADINPUT, ["/q", "too many"]),
    ("rejects a filter outside deflate/shuffle/fletcher32 (scaleoffset)",
     edit(replace_ds("kv_indptr", np.array([0, 4, 4, 9], np.int32), scaleoffset=0, chunks=(4,))),
     BADINPUT, ["/kv_indptr", "filter"]),
    ("rejects a NaN input_scale",
     lambda p: good(p, setter(attr_input_scale=np.float32("nan"))), BADINPUT, ["input_scale", "nan"]),
    ("rejects an infinite input_scale",
     lambda p: good(p, setter(attr_input_scale=np.float32("inf"))), BADINPUT, ["input_scale", "inf"]),
    ("rejects a negative input_scale",
     lambda p: good(p, setter(attr_input_scale=np.float32(-0.02))), BADINPUT, ["input_scale"]),
    ("rejects a NaN sm_scale",
     lambda p: good(p, setter(attr_sm_scale=np.float32("nan"))), BADINPUT, ["sm_scale"]),
    ("rejects a missing sm_scale",
     lambda p: good(p, setter(attr_sm_scale=None)), BADINPUT, ["sm_scale", "missing"]),
    ("rejects batch 0", lambda p: good(p, setter(attr_batch=0)), BADINPUT, ["batch"]),
    ("rejects batch stored as a string",
     lambda p: good(p, setter(attr_batch="3")), BADINPUT, ["batch", "string"]),
    ("keeps one line when a refused string holds a newline (mxfp4_tie = '\\np')",
     lambda p: good(p, setter(attr_mxfp4_tie="\np")), BADINPUT, ["mxfp4_tie", "\\np"]),
    ("keeps one line when a refused string holds control and non-UTF-8 bytes",
     lambda p: good(p, setter(attr_fp8_format=np.bytes_(b"\x0c\xc2\x85\x1c"))), BADINPUT,
     ["fp8_format", "\\x0c\\xc2\\x85\\x1c"]),
    ("rejects a case name of 100 characters",
     lambda p: good(p, setter(attr_name="x" * 100)), BADINPUT, ["name", "100 characters"]),
]


def run(cmd):
    """(exit code, stderr); a reader that hangs (past $MLAB_TEST_TIMEOUT, 60 s)
    gives (None, "hung")."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=float(os.environ.get("MLAB_TEST_TIMEOUT", "60")))
    except subprocess.TimeoutExpired:
        return None, "hung"
    return p.returncode, p.stderr.strip()


def run_matrix(label, reader, tmp):
    """reader(path) -> (rc, message). Returns the failure count."""
    fails = 0
    path = os.path.join(tmp, "valid.h5")
    good(path)
    rc, msg = reader(path)
    print(f"[{label}] accepts the valid file the bad ones are made from")
    if rc != 0:
        print(f"  FAIL: rc {rc}: {msg}")
        fails += 1
    for i, (what, build, want_rc, words) in enumerate(MATRIX):
        path = os.path.join(tmp, f"bad_{i:02d}.h5")
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)
        elif os.path.lexists(path):
            os.remove(path)
        if build:
            build(path)
        rc, msg = reader(path)
        lines = msg.splitlines()
        missing = [w for w in [path] + words if w not in msg]
        ok = rc == want_rc and len(lines) == 1 and not missing
        print(f"[{label}] {what}: {'ok' if ok else 'FAIL'}")
        if not ok:
            print(f"  exit {rc} (want {want_rc}), {len(lines)} line(s), missing {missing}: {msg!r}")
            fails += 1
    return fails


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("MLAB_BUILD", "build-h5"), "tests", "h5io_tool")
    if not os.path.exists(tool):
        print(f"FAIL: h5io_tool not found at {tool}")
        return 1
    fails = 0
    with tempfile.TemporaryDirectory(prefix="mlab_test_badinput_") as tmp:
        fails += run_matrix("h5io_tool read", lambda p: run([tool, "read", p]), tmp)
        mlab = os.environ.get("MLAB_BIN", "")
        if mlab and os.path.exists(mlab) and run([mlab, "check", "--help"])[0] == 0:
            fails += run_matrix("mlabench check", lambda p: run([mlab, "check", p]), tmp)
        else:
            print(f"note: `$MLAB_BIN check` not available ({mlab or 'MLAB_BIN unset'}): "
                  "that half of the matrix is skipped")
    print(f"{'FAILED' if fails else 'ok'}: {fails} failure(s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
