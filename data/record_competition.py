#!/usr/bin/env python3
"""record_competition.py: record the competition's exact input tensors as
mlabench case files (schema "mlabench-case" v1, data/README.md).

mlabench's own generator (harness/gen.c) is counter-based and portable, so it
cannot give PyTorch's CUDA random stream. This script runs the competition's
generate_input logic itself, in PyTorch on the GPU, and stores its tensors:

  gen = torch.Generator(device="cuda"); gen.manual_seed(seed)
  q  = torch.randn((total_q, 16, 576), dtype=bf16, device="cuda", generator=gen)
  kv = torch.randn((total_kv, 1, 576), dtype=bf16, device="cuda", generator=gen)
  (both * input_scale, in bf16, when --input-scale is not 1: versions before
  2026-03-17 used 0.02)
  qo_indptr = arange(batch + 1) * q_seq_len, kv_indptr = arange(batch + 1) * kv_len
  fp8:   amax = kv.abs().amax().clamp(min=1e-12); scale = amax / fmax;
         codes = (kv / scale).clamp(-fmax, fmax).to(float8)   (torch bf16 ops)
  mxfp4: aiter's "even" scale rule per block of 32, E2M1 elements rounded with
         --tie up (the competition's aiter, default) or --tie even (newer aiter)
  ref_out: fp32 softmax(q k^T * sm_scale) v from the bf16 q and kv, on the GPU
         (TF32 off), causal bottom-right when q_seq_len > 1; skip with --no-ref

One file per case, named by the rule of every case producer (data/case_name.py,
the same as mlabench gen): b4_kv1024_s4217.h5, non-default settings add
_x<scale>, _even, _fnuz, _q<n> in that order, written to "<file>.tmp.<pid>", fsync'd and
renamed. Tensors are stored as little-endian uint views (no ml_dtypes needed).
Needs torch, numpy, h5py; no network.

  python3 data/record_competition.py --out cases/                # the 8 cases
  python3 data/record_competition.py --out cases/ --cases 0,b4_kv8192_s4220
  python3 data/record_competition.py --out /tmp/c --custom 3,100,7 --device cpu

--device cpu works anywhere, but PyTorch's CPU random stream differs from its
CUDA stream, so those bytes are NOT the competition's (the file says so in its
producer attribute). Check a recording with data/verify_recorded.py.
"""
import argparse
import os
import subprocess
import sys
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from case_name import case_name  # noqa: E402  (the naming rule, shared with mlabench gen)

try:
    import torch
except ImportError:  # pragma: no cover
    sys.exit("record_competition.py: needs PyTorch (import torch failed)")

FORMAT, FORMAT_VERSION = "mlabench-case", 1
HEADS, KV_HEADS, DQK, DV, ROPE = 16, 1, 576, 512, 64
BLOCK, NBLK = 32, 576 // 32
SM_SCALE = 1.0 / (DQK ** 0.5)  # 1/24

# (batch, kv_len, seed) of the competition, q_seq_len 1 (papers/spec.md)
SUITE = [(4, 1024, 4217), (4, 8192, 4220), (32, 1024, 5412), (32, 8192, 5415),
         (64, 1024, 1357), (64, 8192, 1360), (256, 1024, 9823), (256, 8192, 9826)]

FP8 = {"e4m3fn": ("float8_e4m3fn", torch.float8_e4m3fn),
       "e4m3fnuz": ("float8_e4m3fnuz", torch.float8_e4m3fnuz)}


# ---- the competition's generate_input ----------------------------------------

def generate(batch, q_seq_len, kv_len, seed, input_scale, device):
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    total_q, total_kv = batch * q_seq_len, batch * kv_len
    q = torch.randn((total_q, HEADS, DQK), dtype=torch.bfloat16, device=device, generator=gen)
    if input_scale != 1.0:
        q = q * input_scale
    kv = torch.randn((total_kv, KV_HEADS, DQK), dtype=torch.bfloat16, device=device, generator=gen)
    if input_scale != 1.0:
        kv = kv * input_scale
    qo_indptr = torch.arange(0, batch + 1, dtype=torch.int32, device=device) * q_seq_len
    kv_indptr = torch.arange(0, batch + 1, dtype=torch.int32, device=device) * kv_len
    return q, kv, qo_indptr, kv_indptr


def quantize_fp8(x, fp8_dtype):
    """The competition's per-tensor quantizer, op for op (bf16 arithmetic)."""
    finfo = torch.finfo(fp8_dtype)
    amax = x.abs().amax().clamp(min=1e-12)
    scale = amax / finfo.max
    y = (x / scale).clamp(min=finfo.min, max=finfo.max).to(fp8_dtype)
    return y, scale.to(torch.float32).reshape(1)


def quantize_mxfp4(x, tie, chunk_rows):
    """aiter-style MXFP4 of x (R, 1, 576) bf16 -> packed (R, 1, 288) uint8 and
    E8M0 scales (R, 18) uint8, in chunks of rows to bound memory.
    Scale: A = block amax; u = floor(log2 A) - 2, +1 when A's significand
    >= 1.75 (aiter adds 0x200000 to A's fp32 bits); clamp to [-127, 127];
    byte u + 127 (a zero block gives 0). Elements: E2M1 of x * 2^-u, the sign
    bit copied from x; tie "up" rounds every midpoint up in magnitude (0.25,
    0.75, 1.25, 1.75, 2.5, 3.5, 5), "even" rounds 0.25, 1.25, 2.5, 5 down;
    both saturate at 6. A block holding NaN gets scale 255 and zero nibbles."""
    rows = x.shape[0]
    packed = torch.empty((rows, 1, DQK // 2), dtype=torch.uint8, device=x.device)
    scales = torch.empty((rows, NBLK), dtype=torch.uint8, device=x.device)
    up = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0]
    strict = {0.25, 1.25, 2.5, 5.0} if tie == "even" else set()
    for r0 in range(0, rows, chunk_rows):
        r1 = min(rows, r0 + chunk_rows)
        xb = x[r0:r1].reshape(r1 - r0, NBLK, BLOCK).float()
        a = xb.abs().amax(dim=-1)
        bits = a.view(torch.int32)
        e = (bits >> 23) & 0xFF
        m = bits & 0x7FFFFF
        u = e - 129 + (m >= 0x600000).to(torch.int32)
        u = torch.where(e == 0, torch.full_like(u, -127), u).clamp(-127, 127)
        nan_blk = torch.isnan(xb).any(dim=-1)
        sb = (u + 127).to(torch.uint8)
        sb[nan_blk] = 255
        scales[r0:r1] = sb
        # 2^-u exactly, from its fp32 bits (u = 127 gives the subnormal 2^-127)
        eb = 127 - u
        p = torch.where(eb > 0, eb << 23, torch.full_like(eb, 0x00400000)).view(torch.float32)
        mag = (xb * p.unsqueeze(-1)).abs()
        code = torch.zeros(mag.shape, dtype=torch.uint8, device=x.device)
        for t in up:
            code += (mag > t if t in strict else mag >= t).to(torch.uint8)
        sign = (xb.view(torch.int32) < 0).to(torch.uint8) << 3
        nib = code | sign
        nib[nan_blk] = 0
        nib = nib.reshape(r1 - r0, DQK)
        packed[r0:r1, 0] = nib[:, 0::2] | (nib[:, 1::2] << 4)
    return packed, scales


def reference(q, kv, q_seq_len, kv_len, batch, chunk_items):
    """fp32 softmax(q k^T * sm_scale) v per item on bf16 inputs; uniform
    lengths. Causal, bottom-right: query i of n sees kv rows 0 .. L-n+i; a
    query that sees none outputs zeros."""
    out = torch.empty((batch * q_seq_len, HEADS, DV), dtype=torch.bfloat16, device=q.device)
    if kv_len == 0:
        out.zero_()
        return out
    qv = q.view(batch, q_seq_len, HEADS, DQK)
    kvv = kv.view(batch, kv_len, DQK)
    j = torch.arange(kv_len, device=q.device)
    i = torch.arange(q_seq_len, device=q.device)
    masked = j[None, :] > (kv_len - q_seq_len + i)[:, None]  # (n, L)
    for g0 in range(0, batch, chunk_items):
        g1 = min(batch, g0 + chunk_items)
        qg = qv[g0:g1].float()
        kg = kvv[g0:g1].float()
        s = torch.einsum("gthd,gld->gthl", qg, kg) * SM_SCALE
        s = s.masked_fill(masked[None, :, None, :], float("-inf"))
        p = torch.softmax(s, dim=-1)
        p = torch.nan_to_num(p, nan=0.0)  # rows that see nothing
        o = torch.einsum("gthl,gld->gthd", p, kg[..., :DV])
        out[g0 * q_seq_len:g1 * q_seq_len] = o.reshape(-1, HEADS, DV).to(torch.bfloat16)
    return out


# ---- writing ---------------------------------------------------------------------

def git_commit():
    """The commit the recorded files are of: MLAB_COMMIT (and
    MLAB_COMMIT_DIRTY=1) where given, as harness/gpu_session.sh gives it,
    since a copied tree may carry a .git whose HEAD is another commit (the
    device machine kept one call's between two: its cases named the last
    call's commit); else what git says of this file's checkout."""
    if os.environ.get("MLAB_COMMIT"):
        return os.environ["MLAB_COMMIT"] + ("-dirty" if os.environ.get("MLAB_COMMIT_DIRTY") == "1" else "")
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        c = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                           text=True, timeout=10)
        if c.returncode != 0 or not c.stdout.strip():
            return "unknown"
        d = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, timeout=10)
        return c.stdout.strip() + ("-dirty" if d.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def u16(t):
    return t.contiguous().view(torch.int16).cpu().numpy().view(np.uint16)


def u8(t):
    return t.contiguous().view(torch.uint8).cpu().numpy()


def write_case(path, datasets, attrs):
    """Schema v1 through h5py: 1.8-compatible headers, contiguous, no
    compression; temporary file, fsync, rename."""
    tmp = f"{path}.tmp.{os.getpid()}"
    ascii_str = h5py.string_dtype("ascii")
    try:
        with h5py.File(tmp, "w", libver=("earliest", "v108")) as f:
            for k, v in attrs.items():
                if isinstance(v, str):
                    f.attrs.create(k, v, dtype=ascii_str)
                else:
                    f.attrs[k] = v
            for name, (arr, ds_attrs) in datasets.items():
                d = f.create_dataset(name, data=arr)
                for k, v in ds_attrs.items():
                    if isinstance(v, str):
                        d.attrs.create(k, v, dtype=ascii_str)
                    else:
                        d.attrs[k] = v
            f.flush()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    try:
        dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        os.fsync(dfd)
        os.close(dfd)
    except OSError:
        pass


def recorded_name(batch, kv_len, seed, args, q_seq_len):
    """The one naming rule of every case producer (data/case_name.py)."""
    return case_name(batch, kv_len, seed, q_seq_len, args.input_scale, args.tie, args.fp8)


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def record(batch, kv_len, seed, q_seq_len, args, producer, commit):
    name = recorded_name(batch, kv_len, seed, args, q_seq_len)
    path = os.path.join(args.out, name + ".h5")
    fp8_name, fp8_dtype = FP8[args.fp8]
    t = {}
    t0 = time.perf_counter()
    q, kv, qo_indptr, kv_indptr = generate(batch, q_seq_len, kv_len, seed, args.input_scale, args.device)
    sync(args.device)
    t["gen"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    kv_fp8, kv_scale = quantize_fp8(kv, fp8_dtype)
    sync(args.device)
    t["fp8"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    kv_fp4, kv_e8m0 = quantize_mxfp4(kv, args.tie, args.chunk_rows)
    sync(args.device)
    t["mxfp4"] = time.perf_counter() - t0

    ref = None
    if not args.no_ref:
        t0 = time.perf_counter()
        ref = reference(q, kv, q_seq_len, kv_len, batch, args.chunk_items)
        sync(args.device)
        t["ref"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    bf16 = {"dtype": "bfloat16"}
    datasets = {
        "q": (u16(q), bf16),
        "kv_bf16": (u16(kv), bf16),
        "kv_fp8": (u8(kv_fp8), {"dtype": fp8_name}),
        "kv_fp8_scale": (kv_scale.cpu().numpy().astype("<f4"), {"dtype": "float32"}),
        "kv_mxfp4": (u8(kv_fp4), {"dtype": "float4_e2m1fn_x2",
                                  "nibble_order": "low_nibble_first_even_index"}),
        "kv_mxfp4_scale": (u8(kv_e8m0), {"dtype": "float8_e8m0fnu", "block_size": np.int32(BLOCK)}),
        "qo_indptr": (qo_indptr.cpu().numpy().astype("<i4"), {"dtype": "int32"}),
        "kv_indptr": (kv_indptr.cpu().numpy().astype("<i4"), {"dtype": "int32"}),
    }
    if ref is not None:
        datasets["ref_out"] = (u16(ref), {"dtype": "bfloat16",
                                          "how": "torch fp32 softmax(q k^T * sm_scale) v on bf16 inputs"})
    attrs = {
        "format": FORMAT, "format_version": np.int32(FORMAT_VERSION), "name": name,
        "batch": np.int32(batch), "q_seq_len": np.int32(q_seq_len), "kv_len": np.int32(kv_len),
        "num_heads": np.int32(HEADS), "num_kv_heads": np.int32(KV_HEADS),
        "qk_head_dim": np.int32(DQK), "v_head_dim": np.int32(DV), "kv_lora_rank": np.int32(DV),
        "qk_rope_head_dim": np.int32(ROPE), "sm_scale": np.float32(SM_SCALE),
        "seed": np.uint64(seed), "input_scale": np.float32(args.input_scale),
        "mxfp4_tie": args.tie, "fp8_format": fp8_name, "producer": producer, "commit": commit,
        "recorded_on": args.device_desc,
    }
    write_case(path, datasets, attrs)
    t["write"] = time.perf_counter() - t0

    size = os.path.getsize(path)
    shapes = ", ".join(f"{k} {list(v[0].shape)}" for k, v in datasets.items())
    print(f"{name}: {shapes}")
    print(f"{name}: {size / 1e6:.1f} MB -> {path}; kv_fp8_scale {float(kv_scale[0]):.6g}; "
          + ", ".join(f"{k} {v:.2f} s" for k, v in t.items()), flush=True)
    return path


def parse_cases(spec):
    if not spec:
        return list(range(len(SUITE)))
    picked = []
    for item in spec.split(","):
        item = item.strip()
        if item.isdigit() and int(item) < len(SUITE):
            picked.append(int(item))
            continue
        hits = [i for i, (b, l, s) in enumerate(SUITE)
                if item in (f"b{b}_kv{l}_s{s}", f"b{b}_kv{l}")]
        if not hits:
            sys.exit(f"record_competition.py: --cases: unknown case {item!r} (0..7 or b4_kv1024_s4217)")
        picked += hits
    return picked


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--cases", default="", help="subset of the 8: indices 0..7 or names, comma-separated")
    ap.add_argument("--custom", action="append", default=[], metavar="B,L,S",
                    help="a custom case batch,kv_len,seed instead of the suite (repeatable)")
    ap.add_argument("--q-seq-len", type=int, default=1, help="query rows per item for --custom (1..4)")
    ap.add_argument("--input-scale", type=float, default=1.0,
                    help="multiply q and kv (bf16) by this; 0.02 before 2026-03-17")
    ap.add_argument("--tie", choices=["up", "even"], default="up",
                    help="E2M1 tie rule: up = competition aiter (default), even = aiter after 2026-03-18")
    ap.add_argument("--fp8", choices=sorted(FP8), default="e4m3fn", help="fp8 format (e4m3fnuz = MI300)")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cpu: PyTorch's CPU random stream, NOT the competition's bytes")
    ap.add_argument("--no-ref", action="store_true", help="do not compute /ref_out")
    ap.add_argument("--chunk-rows", type=int, default=1 << 18, help="kv rows per MXFP4 chunk")
    ap.add_argument("--chunk-items", type=int, default=16, help="batch items per reference chunk")
    args = ap.parse_args()

    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("record_competition.py: no CUDA device; --device cpu records PyTorch's CPU stream "
                 "(different bytes from the competition)")
    if not 1 <= args.q_seq_len <= 4:
        sys.exit("record_competition.py: --q-seq-len must be 1..4")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    if args.device == "cuda":
        args.device_desc = f"cuda {torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}"
    else:
        args.device_desc = f"cpu, torch {torch.__version__} (CPU random stream: not the competition's bytes)"
    producer = f"record_competition.py torch {torch.__version__}"
    if args.device == "cpu":
        producer += " cpu-rng"
    commit = git_commit()
    os.makedirs(args.out, exist_ok=True)

    if args.custom and args.cases:
        sys.exit("record_competition.py: --cases picks suite cases, --custom replaces the suite: give one")
    if args.custom:
        todo = []
        for c in args.custom:
            try:
                b, l, s = (int(v) for v in c.split(","))
            except ValueError:
                sys.exit(f"record_competition.py: --custom {c!r}: expected batch,kv_len,seed")
            if b < 1 or l < 0 or s < 0:
                sys.exit(f"record_competition.py: --custom {c!r}: batch >= 1, kv_len >= 0, seed >= 0")
            todo.append((b, l, s, args.q_seq_len))
    else:
        if args.q_seq_len != 1:
            sys.exit("record_competition.py: the suite has q_seq_len 1; use --custom for others")
        todo = [SUITE[i] + (1,) for i in parse_cases(args.cases)]

    print(f"record_competition.py: {args.device_desc}; input_scale {args.input_scale:g}, "
          f"tie {args.tie}, fp8 {FP8[args.fp8][0]}, ref_out {'no' if args.no_ref else 'yes'}, "
          f"commit {commit}; {len(todo)} case(s) -> {args.out}", flush=True)
    t0 = time.perf_counter()
    for b, l, s, n in todo:
        record(b, l, s, n, args, producer, commit)
        if args.device == "cuda":
            torch.cuda.empty_cache()
    print(f"record_competition.py: done, {len(todo)} file(s) in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
