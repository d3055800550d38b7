#!/usr/bin/env python3
"""gen_rising.py OUT.h5 [--batch B] [--kv-len L] [--period P] [--seed S] [--q-seq-len N]

Writes the input of `mlabench import` (/q, /kv_bf16, /qo_indptr, /kv_indptr:
data/README.md, "Your own tensors") for a case whose scores rise along every
sequence: Q and KV N(0, 1) in bf16, but KV row r of an item multiplied by
1 + 4 (r mod P) / P, a sawtooth of period P rows. Each head's scores then
climb by ~20 log2 units over P rows and fall back, so within any unit of a
few 64-row tiles a tile's max is more than 2^8 above the max of the unit's
first tiles: mxfp4_qrow_lazy's eager step past a unit's first tile
(mla_wgmma.h wg_softmax_lazy) runs, which N(0, 1) cases never make it do
(their tile maxima move by a few log2 units). The GPU tests validate every
variant on it and check that the negative control MLAB_FAULT=lazy (O not
rescaled there) is caught (tests/gpu.cmake). --q-seq-len 2: two query rows
an item (MTP), where the MXFP4 decodes' M32 unit runs (MLAB_MTP=on) and
its own lazy step, 32 columns a consumer, is reached the same way. Needs
numpy and h5py; exit 77 without them (the test is then skipped, not
passed)."""
import argparse
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover - the environment's
    print(f"gen_rising.py: {e}: skipped", file=sys.stderr)
    sys.exit(77)

HEADS, DQK = 16, 576


def bf16_bits(x):
    """float32 array -> bf16 bit patterns (uint16), round to nearest even"""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--batch", type=int, default=24)
    ap.add_argument("--kv-len", type=int, default=3000)
    ap.add_argument("--period", type=int, default=512)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--q-seq-len", type=int, default=1)
    a = ap.parse_args()
    if a.batch < 1 or a.kv_len < 1 or a.period < 1 or not 1 <= a.q_seq_len <= a.kv_len:
        print("gen_rising.py: --batch, --kv-len and --period must be positive, --q-seq-len 1 .. --kv-len",
              file=sys.stderr)
        return 2
    rng = np.random.default_rng(a.seed)
    q = rng.standard_normal((a.batch * a.q_seq_len, HEADS, DQK), dtype=np.float32)
    kv = rng.standard_normal((a.batch * a.kv_len, 1, DQK), dtype=np.float32)
    r = np.tile(np.arange(a.kv_len), a.batch)
    kv *= (1.0 + 4.0 * (r % a.period) / a.period).astype(np.float32)[:, None, None]
    with h5py.File(a.out, "w") as f:
        f["q"] = bf16_bits(q)
        f["kv_bf16"] = bf16_bits(kv)
        f["qo_indptr"] = (np.arange(a.batch + 1) * a.q_seq_len).astype(np.int32)
        f["kv_indptr"] = (np.arange(a.batch + 1) * a.kv_len).astype(np.int32)
        f.attrs["name"] = "rising" if a.q_seq_len == 1 else f"rising_q{a.q_seq_len}"
    return 0


if __name__ == "__main__":
    sys.exit(main())
