#!/usr/bin/env python3
"""test_numerics.py: reference/numerics.c, bit by bit, against numpy + ml_dtypes.

Usage: test_numerics.py TABLE_DIR   (the tables numerics_dump wrote; its header
comment lists them). Exit 0: every bit agrees; 1: a mismatch (the first few are
printed with their inputs in hex); 77: numpy or ml_dtypes missing (skip).

The oracle here is written from papers/spec.md and reference/numerics.h,
not from the C code:
  bf16, fp8 and RNE e2m1 rounding come from ml_dtypes casts; saturation, NaN
  codes, the sign of e2m1 zeros and the "ties up" e2m1 rule (a threshold
  table) are spelled out here because ml_dtypes does not do them (it gives
  NaN on fp8 overflow and canonical bf16 NaNs);
  the quantizers redo torch's bf16 arithmetic: float32 numpy ops, each result
  rounded to bf16 by ml_dtypes;
  the MXFP4 block exponent uses frexp, not aiter's bit trick.
Bit patterns are compared, not values. Where the spec leaves a NaN's bits open
(decoders, the NaN scale) only NaN-ness is compared.
"""
import os
import sys

try:
    import numpy as np
    import ml_dtypes as md

    for _name in ("bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float4_e2m1fn",
                  "float8_e8m0fnu"):
        getattr(md, _name)
except (ImportError, AttributeError) as exc:
    print(f"SKIP: needs numpy and ml_dtypes >= 0.5 ({exc})")
    sys.exit(77)

F32, U8, U16, U32 = np.float32, np.uint8, np.uint16, np.uint32
SHOW = 8  # mismatches printed per table
failures = 0


def load(tdir, name):
    dtype = {"u8": U8, "u16": U16, "u32": U32}[name.rsplit(".", 1)[1]]
    return np.fromfile(os.path.join(tdir, name), dtype=dtype)


def report(title, got, want, inputs, same=None, unit="patterns", note=""):
    """Print the summary line and the first mismatches; count failures.
    inputs(i) formats the inputs of element i; same overrides got == want;
    note says what the inputs cover."""
    global failures
    bad = np.flatnonzero(~same if same is not None else got != want)
    note = f" ({note})" if note else ""
    print(f"{title}: {got.size} {unit}{note}, {bad.size} mismatches")
    for i in bad[:SHOW]:
        print(f"    [{i}] {inputs(i)} -> got 0x{int(got[i]):x}, want 0x{int(want[i]):x}")
    if bad.size:
        failures += 1


def hex32(a):
    return lambda i: f"in 0x{int(a[i]):08x} ({float(a.view(F32)[i])!r})"


def sign_bit(x):
    return (x.view(U32) >> 31).astype(U8)


def bf16r(x):
    """Round float32 to bf16 and back (torch storing a bf16 op's result)."""
    return x.astype(md.bfloat16).astype(F32)


def fp8_midpoints(fmt):
    """The exact ties of a format: midpoints of neighbouring finite values."""
    v = np.arange(0x80, dtype=U8).view(FP8[fmt][0]).astype(np.float64)
    v = v[np.isfinite(v)]
    return ((v[:-1] + v[1:]) / 2).astype(F32)


def count_in(x, table):
    with np.errstate(invalid="ignore"):
        return int(np.count_nonzero(np.isin(np.abs(x), table)))


# ---- oracles ----------------------------------------------------------------

def bf16_encode(bits):
    x = bits.view(F32)
    with np.errstate(invalid="ignore"):
        out = x.astype(md.bfloat16).view(U16).copy()
    nan = np.isnan(x)  # spec: sign and top payload kept, quiet bit set
    out[nan] = ((bits[nan] >> 16) | 0x40).astype(U16)
    return out


FP8 = {"fn": (md.float8_e4m3fn, F32(448.0)), "fnuz": (md.float8_e4m3fnuz, F32(240.0))}


def fp8_encode(x, fmt):
    dtype, fmax = FP8[fmt]
    nan = np.isnan(x)
    y = np.clip(np.where(nan, F32(0), x), -fmax, fmax)  # saturate (Inf too) first
    out = y.astype(dtype).view(U8).copy()  # RNE; fnuz gives +0 for -0
    out[nan] = (0x7F | (sign_bit(x[nan]) << 7)) if fmt == "fn" else 0x80
    return out


E2M1_THRESHOLDS = np.array([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0], dtype=F32)


def e2m1_encode(x, tie):
    nan = np.isnan(x)
    if tie == "up":
        # nearest, ties up in magnitude: code = number of thresholds <= |x|
        mag = np.searchsorted(E2M1_THRESHOLDS, np.abs(np.where(nan, F32(0), x)),
                              side="right").astype(U8)
    else:
        y = np.clip(np.where(nan, F32(0), x), F32(-6), F32(6))
        mag = y.astype(md.float4_e2m1fn).view(U8) & 0x7
    out = mag | (sign_bit(x) << 3)
    out[nan] = 0
    return out


def e8m0_encode(x):
    mant, e = np.frexp(x)  # x = mant * 2^e, mant in [0.5, 1): floor(log2 x) = e - 1
    with np.errstate(invalid="ignore"):
        out = np.clip(e.astype(np.int64) - 1 + 127, 0, 254).astype(U8)
        out[~(x > 0)] = 0
    out[x == np.inf] = 254
    out[np.isnan(x)] = 255
    return out


def e8m0_value(b):
    return b.astype(U8).view(md.float8_e8m0fnu).astype(F32)


def e2m1_value(n):
    return n.astype(U8).view(md.float4_e2m1fn).astype(F32)


def fp8_quantize(x16, lens, fmt):
    """The task's per-tensor quantizer over concatenated tensors.
    Returns codes, scales and the unclamped y = bf16(x / s)."""
    _, fmax = FP8[fmt]
    x = x16.view(md.bfloat16).astype(F32)
    starts = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        amax = np.maximum.reduceat(np.abs(x), starts)  # NaN propagates
        amax = bf16r(np.maximum(amax, F32(1e-12)))
        s = bf16r(amax / fmax)
        y = bf16r(x / np.repeat(s, lens))
        yc = np.clip(y, -fmax, fmax)
    return fp8_encode(yc, fmt), s, y


def mxfp4_quantize(x16, tie):
    x = x16.view(md.bfloat16).astype(F32).reshape(-1, 32)
    with np.errstate(invalid="ignore"):
        amax = np.max(np.abs(x), axis=1)
    nan = np.isnan(amax)
    mant, e = np.frexp(np.where(nan, F32(1), amax))
    # u = floor(log2 A) - 2, + 1 when the significand 2*mant >= 1.75. That
    # bump can take A past the largest float: aiter's rounded A is then +Inf,
    # log2 = +Inf, and the clamp gives 127.
    rounded_exp = (e.astype(np.int64) - 1) + (2 * mant >= 1.75)
    u = np.where(rounded_exp >= 128, 127, rounded_exp - 2)
    u = np.where(amax == 0, -127, u)          # log2(0) = -inf
    u = np.where(np.isinf(amax), 127, u)
    u = np.clip(u, -127, 127)
    scale = np.where(nan, 255, u + 127).astype(U8)
    mul = np.ldexp(F32(1), (-u).astype(np.int32)).astype(F32)
    with np.errstate(invalid="ignore", over="ignore"):
        q = x * mul[:, None]
    nib = e2m1_encode(q.ravel(), tie).reshape(-1, 32)
    ties = count_in(np.where(nan[:, None], F32(0), q), E2M1_THRESHOLDS)
    nib[nan] = 0
    packed = (nib[:, 0::2] | (nib[:, 1::2] << 4)).astype(U8)
    with np.errstate(invalid="ignore", over="ignore"):
        deq = e2m1_value(nib) * e8m0_value(scale)[:, None]
    return packed.ravel(), scale, deq.ravel(), ties


# ---- the checks ---------------------------------------------------------------

def check_bf16(tdir):
    x = load(tdir, "bf16_encode.in.u32")
    ties = np.count_nonzero((x & 0xFFFF) == 0x8000)
    nans = np.count_nonzero(np.isnan(x.view(F32)))
    report("bf16 encode", load(tdir, "bf16_encode.out.u16"), bf16_encode(x), hex32(x),
           note=f"{ties} ties, {nans} NaNs")


def check_fp8(tdir):
    x = load(tdir, "fp8_encode.in.u32")
    for fmt in ("fn", "fnuz"):
        over = np.count_nonzero(np.abs(x.view(F32)) > FP8[fmt][1])
        report(f"fp8 e4m3{fmt} encode", load(tdir, f"fp8_encode.{fmt}.u8"),
               fp8_encode(x.view(F32), fmt), hex32(x),
               note=f"{count_in(x.view(F32), fp8_midpoints(fmt))} ties, {over} beyond max")
    codes = np.arange(256, dtype=U8)
    for fmt in ("fn", "fnuz"):
        got = load(tdir, f"fp8_decode.{fmt}.u32")
        want = codes.view(FP8[fmt][0]).astype(F32)
        same = np.where(np.isnan(want), np.isnan(got.view(F32)), got == want.view(U32))
        report(f"fp8 e4m3{fmt} decode", got, want.view(U32), lambda i: f"code 0x{i:02x}",
               same, unit="codes")
    # the NaN codes themselves, as the spec names them
    nan_fn = np.isnan(load(tdir, "fp8_decode.fn.u32").view(F32))
    nan_fnuz = np.isnan(load(tdir, "fp8_decode.fnuz.u32").view(F32))
    report("fp8 NaN codes are 0x7f 0xff (fn), 0x80 (fnuz)",
           np.array([np.flatnonzero(nan_fn).tolist() == [0x7F, 0xFF],
                     np.flatnonzero(nan_fnuz).tolist() == [0x80]]),
           np.array([True, True]), lambda i: ["fn", "fnuz"][i], unit="formats")


def check_e2m1(tdir):
    x = load(tdir, "e2m1_encode.in.u32")
    for tie in ("up", "even"):
        report(f"e2m1 encode ({tie})", load(tdir, f"e2m1_encode.{tie}.u8"),
               e2m1_encode(x.view(F32), tie), hex32(x),
               note=f"{count_in(x.view(F32), E2M1_THRESHOLDS)} ties")
    got = load(tdir, "e2m1_decode.out.u32")
    report("e2m1 decode", got, e2m1_value(np.arange(16)).view(U32),
           lambda i: f"nibble 0x{i:x}", unit="nibbles")


def check_e8m0(tdir):
    got = load(tdir, "e8m0_decode.out.u32")
    want = e8m0_value(np.arange(256))
    same = np.where(np.isnan(want), np.isnan(got.view(F32)), got == want.view(U32))
    report("e8m0 decode", got, want.view(U32), lambda i: f"byte {i}", same, unit="bytes")
    x = load(tdir, "e8m0_encode.in.u32")
    want = e8m0_encode(x.view(F32))
    # the oracle itself against ml_dtypes' decode: 2^(b-127) <= x < 2^(b-126)
    with np.errstate(invalid="ignore"):
        xd = x.view(F32).astype(np.float64)
    inside = (xd >= 2.0 ** -127) & (xd < 2.0 ** 128)
    v = e8m0_value(want[inside]).astype(np.float64)
    assert np.all((v <= xd[inside]) & (xd[inside] < 2 * v)), "e8m0 oracle is wrong"
    report("e8m0 encode", load(tdir, "e8m0_encode.out.u8"), want, hex32(x))


def check_fp8_quant(tdir):
    x16 = load(tdir, "fp8_quant.in.u16")
    lens = load(tdir, "fp8_quant.len.u32").astype(np.int64)
    assert lens.sum() == x16.size and lens.min() >= 1
    tensor_of = np.repeat(np.arange(lens.size), lens)
    for fmt in ("fn", "fnuz"):
        want, want_s, y = fp8_quantize(x16, lens, fmt)
        got_s = load(tdir, f"fp8_quant.{fmt}_scale.u32")
        same_s = np.where(np.isnan(want_s), np.isnan(got_s.view(F32)),
                          got_s == want_s.view(U32))
        report(f"fp8 {fmt} quantizer scale", got_s, want_s.view(U32),
               lambda i: f"tensor {i} (len {lens[i]})", same_s, unit="tensors")
        report(f"fp8 {fmt} quantizer codes", load(tdir, f"fp8_quant.{fmt}.u8"), want,
               lambda i: f"tensor {tensor_of[i]} elem bf16 0x{int(x16[i]):04x}",
               unit="elements",
               note=f"{count_in(y, fp8_midpoints(fmt))} ties after division, "
                    f"{np.count_nonzero(np.abs(y) > FP8[fmt][1])} saturated")
    # torch on a GPU computes amax / fmax as amax * fp32(1 / fmax) (a Python
    # scalar divisor becomes a reciprocal multiply); both agree in bf16 for
    # every bf16 amax >= 1e-12, so the C code may divide.
    amax = np.arange(1, 0x7F80, dtype=U16).view(md.bfloat16).astype(F32)
    amax = amax[amax >= F32(1e-12)]
    for fmt in ("fn", "fnuz"):
        fmax = FP8[fmt][1]
        a, b = bf16r(amax / fmax), bf16r(amax * (F32(1) / fmax))
        report(f"fp8 {fmt} scale: divide == reciprocal multiply", a.view(U32), b.view(U32),
               lambda i: f"amax {float(amax[i])!r}", unit="bf16 amax values")


def check_mxfp4(tdir):
    x16 = load(tdir, "mxfp4.in.u16")
    nblocks = x16.size // 32

    def block_inputs(i):
        return "block " + " ".join(f"{int(v):04x}" for v in x16[32 * i:32 * i + 32])

    codes = {}
    for tie in ("up", "even"):
        packed, scale, deq, ties = mxfp4_quantize(x16, tie)
        codes[tie] = packed
        edges = ", ".join(f"{np.count_nonzero(scale == b)} of byte {b}" for b in (0, 254, 255))
        report(f"mxfp4 ({tie}) scales", load(tdir, f"mxfp4.{tie}_scale.u8"), scale,
               block_inputs, unit="blocks", note=edges)
        got = load(tdir, f"mxfp4.{tie}_packed.u8")
        report(f"mxfp4 ({tie}) packed", got, packed,
               lambda i: f"block {i // 16} byte {i % 16}: elems bf16 "
                         f"0x{int(x16[2 * i]):04x} 0x{int(x16[2 * i + 1]):04x}",
               unit="bytes", note=f"{ties} elements on e2m1 ties")
        got = load(tdir, f"mxfp4.{tie}_dequant.u32")
        same = np.where(np.isnan(deq), np.isnan(got.view(F32)), got == deq.view(U32))
        report(f"mxfp4 ({tie}) dequant", got, deq.view(U32),
               lambda i: f"block {i // 32} elem {i % 32} bf16 0x{int(x16[i]):04x}", same,
               unit="elements")
    # information: how often the tie rules differ on the N(0,1) rows (1000 x 576)
    n = 1000 * 576 // 2
    up, ev = codes["up"][:n], codes["even"][:n]
    diff = np.count_nonzero((up & 0xF) != (ev & 0xF)) + np.count_nonzero((up >> 4) != (ev >> 4))
    print(f"mxfp4: {nblocks} blocks; tie rules differ on {100 * diff / (2 * n):.2f}% "
          f"of N(0,1) elements")


def main():
    if len(sys.argv) != 2:
        print("usage: test_numerics.py TABLE_DIR", file=sys.stderr)
        return 2
    tdir = sys.argv[1]
    print(f"numpy {np.__version__}, ml_dtypes {md.__version__}, tables in {tdir}")
    for check in (check_bf16, check_fp8, check_e2m1, check_e8m0, check_fp8_quant,
                  check_mxfp4):
        check(tdir)
    print("FAIL" if failures else "PASS", f"({failures} tables with mismatches)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
