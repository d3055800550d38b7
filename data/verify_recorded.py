#!/usr/bin/env python3
"""verify_recorded.py: an independent check of case files: recompute the fp8
and MXFP4 bytes from /kv_bf16 with numpy + ml_dtypes and count mismatches.

For each FILE (schema "mlabench-case" v1, data/README.md):
  fp8    amax = max|x| (>= bf16(1e-12)); s = bf16(amax / fmax); codes =
         fp8_rne(clamp(bf16(x / s), -fmax, fmax)) via ml_dtypes. PyTorch on a
         GPU computes amax / fmax as amax * (1/fmax), which can round
         differently: both are tried, the stored scale must equal one, and
         the report says which.
  mxfp4  scale byte per block of 32 from the block amax A (u = floor(log2 A)
         - 2, +1 when A's significand >= 1.75, clamp [-127, 127], byte u+127),
         elements E2M1 of x * 2^-u with the file's tie rule (attribute
         mxfp4_tie): "even" through ml_dtypes.float4_e2m1fn, "up" by counting
         thresholds; the other rule's mismatch count is printed for scale.
  ref_out (if stored, on --ref-items sampled items) against numpy float64
         attention: every element within 1 bf16 ulp (+1e-6 absolute).
Works in chunks of rows, so the largest case (2M kv rows) fits in a few GB.

  python3 data/verify_recorded.py cases/*.h5
Exit 0 when everything matches, 1 on any mismatch, 2 on a usage or file error.
"""
import argparse
import sys
import time

try:
    import h5py
    import ml_dtypes
    import numpy as np
except ImportError as e:  # pragma: no cover
    sys.exit(f"verify_recorded.py: needs numpy, h5py and ml_dtypes ({e})")

HEADS, DQK, DV, BLOCK, NBLK = 16, 576, 512, 32, 18
BF16 = ml_dtypes.bfloat16
FP8 = {"float8_e4m3fn": (ml_dtypes.float8_e4m3fn, 448.0),
       "float8_e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, 240.0)}


def raw(ds, sl=slice(None)):
    """Rows of a dataset as unsigned integers of its element size (uint views
    and ml_dtypes opaque types alike)."""
    a = ds[sl]
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint8)


def bf16_to_f32(u):
    return (u.astype(np.uint32) << 16).view(np.float32)


def round_bf16(x):
    return np.asarray(x, np.float32).astype(BF16).astype(np.float32)


# ---- fp8 --------------------------------------------------------------------------

def fp8_scales(amax, fmax):
    a = max(round_bf16(amax), round_bf16(1e-12))
    div = round_bf16(np.float32(a) / np.float32(fmax))
    mul = round_bf16(np.float32(a) * (np.float32(1.0) / np.float32(fmax)))
    return np.float32(div), np.float32(mul)


def fp8_codes(x_u16, s, fp8_t, fmax):
    y = (bf16_to_f32(x_u16) / np.float32(s)).astype(BF16)
    y = np.clip(y.astype(np.float32), -fmax, fmax).astype(BF16)  # clamp in bf16: exact
    return y.astype(fp8_t).view(np.uint8)


# ---- mxfp4 -----------------------------------------------------------------------

def mxfp4(x_u16, tie):
    """(rows, 576) bf16 bits -> packed (rows, 288), scales (rows, 18)."""
    rows = x_u16.shape[0]
    x = bf16_to_f32(x_u16.reshape(rows, NBLK, BLOCK))
    a = np.abs(x).max(axis=-1)
    bits = a.view(np.uint32)
    e = (bits >> 23).astype(np.int32) & 0xFF
    m = bits & 0x7FFFFF
    u = e - 129 + (m >= 0x600000)
    u = np.where(e == 0, -127, u).clip(-127, 127)
    nan_blk = np.isnan(x).any(axis=-1)
    scale = np.where(nan_blk, 255, u + 127).astype(np.uint8)
    q = x * np.ldexp(np.float32(1), -u).astype(np.float32)[..., None]
    sign = (x.view(np.uint32) >> 31).astype(np.uint8) << 3
    if tie == "even":  # ml_dtypes rounds to nearest even and saturates at 6
        nib = q.astype(ml_dtypes.float4_e2m1fn).view(np.uint8) & 0x7
    else:  # every midpoint rounds up in magnitude
        mag = np.abs(q)
        nib = np.zeros(q.shape, np.uint8)
        for t in (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0):
            nib += mag >= t
    nib = (nib | sign)
    nib[nan_blk] = 0
    nib = nib.reshape(rows, DQK)
    return (nib[:, 0::2] | (nib[:, 1::2] << 4)).astype(np.uint8), scale


# ---- ref_out ----------------------------------------------------------------------

def check_ref(f, items, rng):
    qo, kvp = f["qo_indptr"][...], f["kv_indptr"][...]
    batch = len(qo) - 1
    pick = sorted(set(rng.choice(batch, size=min(items, batch), replace=False).tolist()))
    worst, bad, n_el = 0.0, 0, 0
    for b in pick:
        q = bf16_to_f32(raw(f["q"], slice(qo[b], qo[b + 1]))).astype(np.float64)
        kv = bf16_to_f32(raw(f["kv_bf16"], slice(kvp[b], kvp[b + 1]))).reshape(-1, DQK).astype(np.float64)
        got = bf16_to_f32(raw(f["ref_out"], slice(qo[b], qo[b + 1]))).astype(np.float64)
        n, L = q.shape[0], kv.shape[0]
        if L == 0:  # an empty sequence outputs zeros
            bad += int(np.count_nonzero(got))
            n_el += got.size
            continue
        s = np.einsum("thd,ld->thl", q, kv) * float(np.float32(f.attrs["sm_scale"]))
        vis = np.arange(L)[None, :] <= (L - n + np.arange(n))[:, None]  # causal, bottom-right
        s = np.where(vis[:, None, :], s, -np.inf)
        mx = s.max(axis=-1, keepdims=True)
        p = np.where(vis[:, None, :], np.exp(s - np.where(np.isfinite(mx), mx, 0)), 0.0)
        den = p.sum(axis=-1, keepdims=True)
        want = np.einsum("thl,ld->thd", np.divide(p, den, out=np.zeros_like(p), where=den > 0), kv[:, :DV])
        ulp = np.maximum(np.abs(want), 1e-30) * 2.0 ** -7  # one bf16 ulp (upper bound)
        err = np.abs(got - want)
        bad += int(np.count_nonzero(err > ulp + 1e-6))
        worst = max(worst, float(err.max()) if err.size else 0.0)
        n_el += err.size
    return pick, n_el, bad, worst


# ---- one file ---------------------------------------------------------------------

def verify(path, args):
    t0 = time.perf_counter()
    problems = 0
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") not in ("mlabench-case", b"mlabench-case"):
            print(f"{path}: not a mlabench case file (format = {f.attrs.get('format')!r})")
            return 2
        sattr = lambda k: f.attrs[k].decode() if isinstance(f.attrs[k], bytes) else str(f.attrs[k])
        fp8_name, tie = sattr("fp8_format"), sattr("mxfp4_tie")
        fp8_t, fmax = FP8[fp8_name]
        kv = f["kv_bf16"]
        rows = kv.shape[0]
        limit = rows if args.rows <= 0 else min(rows, args.rows)
        print(f"{path}: {f.attrs.get('name', '?')}, {rows} kv rows, {fp8_name}, tie {tie}, "
              f"producer {f.attrs.get('producer', '?')!r}")

        # fp8: the scale needs the whole tensor's amax
        amax = np.float32(0)
        for r0 in range(0, rows, args.chunk):
            x = bf16_to_f32(raw(kv, slice(r0, r0 + args.chunk)))
            if x.size:
                amax = max(amax, np.float32(np.abs(x).max()))
        s_div, s_mul = fp8_scales(amax, fmax)
        stored = np.float32(f["kv_fp8_scale"][()].reshape(-1)[0])
        how = "amax / fmax" if stored == s_div else "amax * (1/fmax)" if stored == s_mul else None
        if how is None:
            print(f"  fp8 scale: MISMATCH stored {stored!r} vs bf16(amax/fmax) {s_div!r} "
                  f"or bf16(amax*(1/fmax)) {s_mul!r}")
            problems += 1
            s = s_div
        else:
            s = stored
            note = "" if s_div == s_mul else f" (the two roundings differ here: {s_div!r} vs {s_mul!r})"
            print(f"  fp8 scale: {stored!r} = bf16({how}){note}")

        bad8 = badp = bads = badp_other = 0
        other = "even" if tie == "up" else "up"
        for r0 in range(0, limit, args.chunk):
            r1 = min(limit, r0 + args.chunk)
            x = raw(kv, slice(r0, r1)).reshape(r1 - r0, DQK)
            bad8 += int(np.count_nonzero(fp8_codes(x, s, fp8_t, fmax) != raw(f["kv_fp8"], slice(r0, r1)).reshape(r1 - r0, DQK)))
            packed, scale = mxfp4(x, tie)
            badp += int(np.count_nonzero(packed != raw(f["kv_mxfp4"], slice(r0, r1)).reshape(r1 - r0, DQK // 2)))
            bads += int(np.count_nonzero(scale != raw(f["kv_mxfp4_scale"], slice(r0, r1))))
            if args.other_tie:
                badp_other += int(np.count_nonzero(mxfp4(x, other)[0] != packed))
        scope = "all" if limit == rows else f"first {limit} of"
        print(f"  kv_fp8: {bad8} of {limit * DQK} codes differ ({scope} rows)")
        print(f"  kv_mxfp4 (tie {tie}): {badp} of {limit * DQK // 2} bytes differ; "
              f"kv_mxfp4_scale: {bads} of {limit * NBLK} differ")
        if args.other_tie:
            print(f"  (for scale: tie {other} would change {badp_other} bytes of kv_mxfp4)")
        problems += bad8 + badp + bads

        if "ref_out" in f and args.ref_items > 0:
            pick, n_el, bad, worst = check_ref(f, args.ref_items, np.random.default_rng(args.seed))
            print(f"  ref_out on items {pick}: {bad} of {n_el} values off by more than 1 bf16 ulp "
                  f"from float64 (max abs diff {worst:.3g}; how = {f['ref_out'].attrs.get('how', '?')!r})")
            problems += bad
    verdict = "ok" if problems == 0 else "MISMATCH"
    print(f"  {verdict} ({time.perf_counter() - t0:.1f} s)")
    return 0 if problems == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rows", type=int, default=0, help="check only the first N kv rows (0: all)")
    ap.add_argument("--chunk", type=int, default=1 << 16, help="kv rows per chunk")
    ap.add_argument("--ref-items", type=int, default=2, help="batch items of ref_out to check (0: none)")
    ap.add_argument("--seed", type=int, default=0, help="which items to sample")
    ap.add_argument("--other-tie", action="store_true", help="also count bytes the other tie rule changes")
    args = ap.parse_args()
    worst = 0
    for p in args.files:
        try:
            worst = max(worst, verify(p, args))
        except Exception as e:  # any malformed file (a group where a dataset goes: TypeError): exit 2, one line
            print(f"{p}: cannot verify: {' '.join(str(e).split()) or type(e).__name__}")
            worst = 2
    return worst


if __name__ == "__main__":
    sys.exit(main())
