"""case_name.py: the case naming rule of every mlabench case producer, in
Python (the C side is mlab_gen_name in harness/gen.c; tests/test_names.py
checks that the two agree). No dependencies beyond the standard library, so
the rule can be imported and tested without torch.

  b<batch>_kv<L>_s<seed>[_x<scale>][_even][_fnuz][_q<n>]

L is the uniform kv length. Varying lengths give kv<L1>-<L2>-.. when that
list is at most 32 characters, else kvvar<8 hex digits of FNV-1a 32 over
"L1,L2,..">. A suffix appears only when its parameter differs from the
default (input scale 1, tie up, e4m3fn, q_seq_len 1); the scale is written
with the fewest %g digits that give back its fp32 value. Names longer than
63 characters are refused (ValueError). See data/README.md, "Case names".
"""
import struct


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def scale_str(x):
    """The fewest %g digits that read back as the fp32 value of x."""
    f = _f32(x)
    for p in range(1, 10):
        s = f"{f:.{p}g}"
        if _f32(float(s)) == f:
            return s
    return f"{f:.9g}"


def case_name(batch, kv, seed, q_seq_len=1, input_scale=1.0, tie="up", fp8="e4m3fn"):
    """kv: one length (uniform) or a list of batch lengths."""
    # numpy integers as h5py gives them count as one length (not an iterable)
    batch, seed, q_seq_len = int(batch), int(seed), int(q_seq_len)
    lens = [int(v) for v in kv] if isinstance(kv, (list, tuple)) or getattr(kv, "ndim", 0) > 0 else [int(kv)] * batch
    if tie not in ("up", "even"):
        raise ValueError(f"tie {tie!r}: 'up' or 'even'")
    if fp8 not in ("e4m3fn", "float8_e4m3fn", "e4m3fnuz", "float8_e4m3fnuz"):
        raise ValueError(f"fp8 {fp8!r}: e4m3fn or e4m3fnuz")
    if len(lens) != batch:
        raise ValueError(f"batch {batch} but {len(lens)} kv lengths")
    if all(v == lens[0] for v in lens):
        kvs = f"kv{lens[0]}"
    else:
        joined = "-".join(str(v) for v in lens)
        if len(joined) <= 32:
            kvs = "kv" + joined
        else:
            h = 2166136261
            for ch in ",".join(str(v) for v in lens).encode("ascii"):
                h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
            kvs = f"kvvar{h:08x}"
    n = f"b{batch}_{kvs}_s{seed}"
    if _f32(input_scale) != 1.0:
        n += "_x" + scale_str(input_scale)
    if tie != "up":
        n += "_even"
    if fp8 not in ("e4m3fn", "float8_e4m3fn"):
        n += "_fnuz"
    if q_seq_len != 1:
        n += f"_q{q_seq_len}"
    if len(n) > 63:
        raise ValueError(f"case name {n}: {len(n)} characters, the limit is 63")
    return n
