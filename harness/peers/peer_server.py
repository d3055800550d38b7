#!/usr/bin/env python3
"""peer_server.py: one external MLA decode implementation (a "peer") behind
mlabench's line protocol. `mlabench run --peers ...` (harness/peer.c) starts
one of these per (peer, case) and drives it; validation, the timing loop and
the results rows stay in C, so peers and mlabench's own variants are checked
and timed by the same code with the same parameters.

    python3 peer_server.py PEER [--device cuda|cpu]

PEER: torch_bf16 | flashinfer_bf16 | flashinfer_fp8 | flashmla_bf16 | flashmla_fp8
      | aiter_bf16 | aiter_fp8 | sub:FILE.py (a competition submission, competition.py)

Protocol: the server answers each request with one line on stdout; whatever
the peer itself prints is sent to stderr. First, unasked, a greeting:
    ok <version>            e.g. "ok flashinfer-python 0.7.2, torch 2.11.0"
    skip <reason>           not installed / not for this device
    err <reason>
Then, one request a line:
    load CASE.h5     read the case, build the peer's inputs on the device
                     (layout changes, plans, metadata: outside every timed
                     call)                        -> ok | skip <reason> | err <reason>
    run OUT.bin      one call; its output, bf16 bits [total_q, 16, 512],
                     written raw (little-endian)  -> ok <non-finite count> | err <reason>
    warm             one untimed call             -> ok | err
    cold BYTES       overwrite a BYTES-byte buffer (outside the timed region),
                     then one call between device events
                                                  -> ok <microseconds> | err
    graph N          capture one call in a CUDA graph, replay it N times
                     between events               -> ok <mean microseconds> | none <reason>
    check            the peer's inputs still hold the case's bytes (after the
                     timed calls: a submission that changes them in place was
                     timed on other data)         -> ok | err <reason>
    quit             exit 0
Every reason is one line. The timing parameters (flush size, warm-up count,
stop rule, graph replays) come from mlabench; none is fixed here.
--device cpu (tests only) runs on the CPU with host clocks; no graphs.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

PEERS = ("torch_bf16", "flashinfer_bf16", "flashinfer_fp8", "flashmla_bf16", "flashmla_fp8",
         "aiter_bf16", "aiter_fp8")
PAGE = 64  # FlashInfer's and FlashMLA's page size (tokens)


class Skip(Exception):
    """The peer cannot take this request here (not an error of the peer)."""


def _version(*dists):
    """"<dist> <version>" of the first installed distribution of dists."""
    from importlib.metadata import PackageNotFoundError, version
    for d in dists:
        try:
            return f"{d} {version(d)}"
        except PackageNotFoundError:
            continue
    return f"{dists[0]} (version unknown)"


def _torch_version():
    import torch
    return "torch " + torch.__version__.split("+")[0]


# ---- peers ----------------------------------------------------------------------
# Each: load(case_dict, device) builds inputs; call() runs once and returns the
# output tensor; total_q is the expected row count.

class TorchPeer:
    """The baseline a user writes first: a loop over items, Q.K^T in fp32
    (q.float() @ k.float().T), softmax in fp32, P rounded to bf16 for a bf16
    P.V. (With the scores left in bf16, torch.matmul's output type, the error
    reached 4.1e-3 relative RMS at kv_len 100, past kernel:bf16's 4e-3: such
    a baseline would fail validation and never be timed.)"""
    name = "torch_bf16"

    def __init__(self, device):
        import torch
        self.torch, self.device = torch, device
        self.version = _torch_version()

    def load(self, c):
        from competition import layout_numpy, to_torch
        q, kv_data, qo, kv, cfg = to_torch(layout_numpy(c), self.device)
        self.q, self.kv, self.sm = q, kv_data["bf16"].view(-1, 576), cfg["sm_scale"]
        self.qo, self.kvi = [int(x) for x in c["qo_indptr"]], [int(x) for x in c["kv_indptr"]]
        self.total_q = q.shape[0]
        torch = self.torch
        # the causal masks (n > 1 rows over L), built once
        self.masks = {}
        for b in range(len(self.qo) - 1):
            n, L = self.qo[b + 1] - self.qo[b], self.kvi[b + 1] - self.kvi[b]
            if n > 1 and (n, L) not in self.masks:
                i = torch.arange(n, device=self.device)[:, None, None]
                j = torch.arange(L, device=self.device)[None, None, :]
                self.masks[(n, L)] = j > (L - n + i)

    def call(self):
        torch = self.torch
        out = torch.zeros((self.total_q, 16, 512), dtype=torch.bfloat16, device=self.device)
        for b in range(len(self.qo) - 1):
            q0, q1, k0, k1 = self.qo[b], self.qo[b + 1], self.kvi[b], self.kvi[b + 1]
            if q1 == q0 or k1 == k0:
                continue
            k = self.kv[k0:k1]                                        # [L, 576]
            s = torch.matmul(self.q[q0:q1].float(), k.t().float()) * self.sm  # [n, 16, L]
            m = self.masks.get((q1 - q0, k1 - k0))
            if m is not None:
                s = s.masked_fill(m, float("-inf"))
            p = torch.softmax(s, dim=-1).nan_to_num_(0.0)  # a row that sees nothing: zeros
            out[q0:q1] = torch.matmul(p.to(torch.bfloat16), k[:, :512])
        return out


def page_kv(rows, kv_indptr, page):
    """Contiguous KV rows [total_kv, 576] cut by kv_indptr into pages of
    `page` rows: item b's rows start at its own first page, the rest of its
    last page is zero. Returns (pages [n, page, 576], page_indptr int32
    [batch + 1], lengths int32 [batch]); at least one page."""
    import numpy as np
    kvp = np.asarray(kv_indptr, dtype=np.int64)
    lens = np.diff(kvp)
    page_indptr = np.concatenate([[0], np.cumsum((lens + page - 1) // page)]).astype(np.int32)
    n = max(int(page_indptr[-1]), 1)
    out = np.zeros((n * page, rows.shape[1]), dtype=rows.dtype)
    for b in range(len(lens)):
        if lens[b]:
            p0 = int(page_indptr[b]) * page
            out[p0:p0 + int(lens[b])] = rows[int(kvp[b]):int(kvp[b + 1])]
    return out.reshape(n, page, rows.shape[1]), page_indptr, lens.astype(np.int32)


def need_sm90(torch, device, who, why):
    """Skip unless this is an NVIDIA SM90 GPU (Hopper-only peers)."""
    if device == "cpu" or not torch.cuda.is_available():
        raise Skip(f"{who} needs a CUDA GPU")
    if getattr(torch.version, "hip", None):
        raise Skip(f"{who} is NVIDIA-only")
    major, _ = torch.cuda.get_device_capability()
    if major != 9:
        raise Skip(f"{why} (this is SM{major}x)")


class FlashInferPeer:
    """FlashInfer's MLA decode, BatchMLAPagedAttentionWrapper, backend "fa3"
    (Hopper), pages of 64 tokens. The case's contiguous KV is copied into
    pages once at load, and plan() runs at load: neither is in the timed call.
    flashinfer_fp8 reads e4m3fn KV codes with the per-tensor scale
    (scale_mode "kv-per-tensor"); Q stays bf16."""

    def __init__(self, device, fp8):
        import torch
        try:
            import flashinfer  # noqa: F401
            from flashinfer.mla import BatchMLAPagedAttentionWrapper
        except Exception as e:  # noqa: BLE001 - any import failure means "not usable here"
            from competition import exc_line  # an empty message gave IndexError here
            raise Skip(f"flashinfer not importable ({type(e).__name__}: {exc_line(e)[:120]})")
        need_sm90(torch, device, "flashinfer", "backend fa3 needs an SM90 GPU")
        self.torch, self.device, self.fp8 = torch, device, fp8
        self.Wrapper = BatchMLAPagedAttentionWrapper
        self.name = "flashinfer_fp8" if fp8 else "flashinfer_bf16"
        self.version = _version("flashinfer-python") + ", " + _torch_version()

    def load(self, c):
        torch, dev = self.torch, self.device
        import numpy as np
        from flashinfer.mla import MLAPlanMetadata
        if self.fp8 and c["fp8_format"] != "float8_e4m3fn":
            raise Skip(f"FlashInfer's fp8 MLA reads float8_e4m3fn, the case holds {c['fp8_format']}")
        qo = c["qo_indptr"].astype(np.int64)
        # the stored bits, paged in numpy, then reinterpreted (never converted)
        if self.fp8:
            src, dt = c["kv_fp8"].reshape(-1, 576).view(np.uint8), torch.float8_e4m3fn
            self.scale = float(c["kv_fp8_scale"].reshape(-1)[0])
        else:
            src, dt = c["kv_bf16"].reshape(-1, 576).view(np.int16), torch.bfloat16
        paged, page_indptr, lens = page_kv(src, c["kv_indptr"], PAGE)
        npages = paged.shape[0]
        self.kv = torch.from_numpy(paged).view(dt).to(dev)
        self.q = torch.from_numpy(c["q"].view(np.int16)).view(torch.bfloat16).to(dev).contiguous()
        self.total_q = self.q.shape[0]
        ws = torch.empty(128 << 20, dtype=torch.uint8, device=dev)
        self.w = self.Wrapper(ws, backend="fa3")
        meta = MLAPlanMetadata.csr(
            torch.from_numpy(qo.astype(np.int32)).to(dev),
            torch.from_numpy(page_indptr).to(dev),
            torch.arange(npages, dtype=torch.int32, device=dev),
            torch.from_numpy(lens).to(dev))
        qlens = np.diff(qo)
        self.w.plan(metadata=meta, num_heads=16, head_dim_ckv=512, head_dim_kpe=64,
                    page_size=PAGE, causal=bool(qlens.size and qlens.max() > 1),
                    sm_scale=c["sm_scale"], q_data_type=torch.bfloat16,
                    kv_data_type=torch.float8_e4m3fn if self.fp8 else torch.bfloat16,
                    scale_mode="kv-per-tensor" if self.fp8 else "default")

    def call(self):
        if self.fp8:
            # one per-tensor scale for the whole 576-dim row: the latent (ckv)
            # and rope (kpe) parts alike (FlashInfer 0.7.2 requires both)
            return self.w.run(query=self.q, kv_cache=self.kv, ckv_scale=self.scale, kpe_scale=self.scale)
        return self.w.run(query=self.q, kv_cache=self.kv)


def quantize_q_per_tensor(torch, q, dt):
    """The task's a8w8 Q inside the call, in the competition's torch ops (bf16
    scale, q / scale rounded to bf16, then to fp8: the reference's rule,
    reference/numerics.c mlab_fp8_quantize_tensor): (codes, float32 scale [1])."""
    fi = torch.finfo(dt)
    qs = q.abs().amax().clamp(min=1e-12) / fi.max
    return (q / qs).clamp(fi.min, fi.max).to(dt), qs.to(torch.float32).reshape(1)


class FlashMLAPeer:
    """FlashMLA (DeepSeek's MLA decode for Hopper), the dense decode of the
    prebuilt libraries vLLM's wheel carries (harness/peers/pack_flashmla.sh;
    $MLAB_FLASHMLA_DIR, which use_pack.sh exports): flashmla_bf16 (bf16 Q and
    KV, torch op _flashmla_C.dense_decode_fwd) and flashmla_fp8 (a8w8: e4m3
    Q quantized per tensor inside the call, as the task does, and e4m3fn KV
    with its per-tensor scale; _flashmla_extension_C.fwd_kvcache_mla_fp8),
    pages of 64 tokens, bf16 output. The paged copy of the KV, the block
    table and the tile-scheduler metadata (FlashMLA's get_mla_metadata step,
    which a serving engine runs once a decode step for all layers) are made
    at load, outside every timed call. FlashMLA takes one query count for
    every item (q [batch, s_q, 16, 576]); a ragged query batch is skipped.
    An item with no KV rows comes out as zeros (mlabench's convention; H200,
    s34), so such batches are validated like any other."""

    def __init__(self, device, fp8):
        import torch
        d = os.environ.get("MLAB_FLASHMLA_DIR", "")
        ver = os.path.join(d, "VERSION")
        if not d or not os.path.exists(ver):
            raise Skip("no FlashMLA pack (MLAB_FLASHMLA_DIR: harness/peers/pack_flashmla.sh, "
                       "then . harness/peers/use_pack.sh)")
        with open(ver) as f:
            words = f.read().split()  # "vllm <v> torch <t>"
        built = dict(zip(words[::2], words[1::2]))
        have = torch.__version__.split("+")[0]
        if built.get("torch") != have:
            raise Skip(f"the FlashMLA pack is vllm {built.get('vllm', '?')}'s, built for torch "
                       f"{built.get('torch', '?')}; this is torch {have}")
        need_sm90(torch, device, "FlashMLA", "FlashMLA's dense decode is SM90 code")
        lib = "_flashmla_extension_C.abi3.so" if fp8 else "_flashmla_C.abi3.so"
        try:
            torch.ops.load_library(os.path.join(d, lib))
        except Exception as e:  # noqa: BLE001 - a library that does not load: not usable here
            from competition import exc_line
            raise Skip(f"{lib} does not load ({type(e).__name__}: {exc_line(e)[:120]})")
        self.ops = torch.ops._flashmla_extension_C if fp8 else torch.ops._flashmla_C
        self.torch, self.device, self.fp8 = torch, device, fp8
        self.name = "flashmla_fp8" if fp8 else "flashmla_bf16"
        self.version = f"FlashMLA of vllm {built.get('vllm', '?')}, " + _torch_version()
        self.out = None

    def load(self, c):
        torch, dev = self.torch, self.device
        import numpy as np
        qlens = np.diff(c["qo_indptr"])
        if qlens.size == 0 or qlens.min() != qlens.max() or qlens[0] < 1:
            raise Skip("FlashMLA takes the same query count for every item (this batch is ragged)")
        if self.fp8 and c["fp8_format"] != "float8_e4m3fn":
            raise Skip(f"FlashMLA's fp8 decode reads float8_e4m3fn, the case holds {c['fp8_format']}")
        b, sq = len(qlens), int(qlens[0])
        if self.fp8:
            src, dt = c["kv_fp8"].reshape(-1, 576).view(np.uint8), torch.float8_e4m3fn
            self.kscale = torch.tensor([float(c["kv_fp8_scale"].reshape(-1)[0])], dtype=torch.float32,
                                       device=dev)
        else:
            src, dt = c["kv_bf16"].reshape(-1, 576).view(np.int16), torch.bfloat16
        paged, page_indptr, lens = page_kv(src, c["kv_indptr"], PAGE)
        npg = np.diff(page_indptr)
        table = np.zeros((b, max(int(npg.max()), 1)), dtype=np.int32)
        for i in range(b):
            table[i, :npg[i]] = np.arange(page_indptr[i], page_indptr[i + 1], dtype=np.int32)
        self.kv = torch.from_numpy(paged).view(dt).to(dev).view(paged.shape[0], PAGE, 1, 576)
        self.table = torch.from_numpy(table).to(dev)
        self.seqlens = torch.from_numpy(lens).to(dev)
        q = torch.from_numpy(c["q"].view(np.int16)).view(torch.bfloat16).to(dev)
        self.q = q.view(b, sq, 16, 576).contiguous()
        self.total_q, self.sm, self.causal = b * sq, float(c["sm_scale"]), sq > 1
        if self.fp8:
            self.meta, self.nsplits = self.ops.get_mla_decoding_metadata_dense_fp8(self.seqlens, sq * 16, 1)
        else:
            # its own layout of the output: (batch, KV heads 1, s_q x 16 query heads, 512),
            # query s's head h at s 16 + h, the memory order of (batch, s_q, 16, 512)
            self.out = torch.empty((b, 1, sq * 16, 512), dtype=torch.bfloat16, device=dev)
            # the first call plans (tile-scheduler metadata); later calls reuse its plan
            _, _, self.meta, self.nsplits = self.ops.dense_decode_fwd(
                self.q, self.kv, 512, self.seqlens, self.table, self.sm, self.causal, None, None, self.out)

    def poison_output(self):
        """NaN into the output buffer the next call writes (bf16: FlashMLA
        writes into ours; the fp8 decode allocates its own)."""
        if self.out is not None:
            self.out.fill_(float("nan"))

    def call(self):
        if self.fp8:
            q8, qs = quantize_q_per_tensor(self.torch, self.q, self.torch.float8_e4m3fn)
            o = self.ops.fwd_kvcache_mla_fp8(q8, self.kv, 512, self.seqlens, self.table, self.sm, self.causal,
                                             self.meta, self.nsplits, qs, self.kscale)[0]
        else:
            o = self.ops.dense_decode_fwd(self.q, self.kv, 512, self.seqlens, self.table, self.sm, self.causal,
                                          self.meta, self.nsplits, self.out)[0]
        return o.view(self.total_q, 16, 512)


class AiterPeer:
    """AMD's aiter mla_decode_fwd (persistent mode, pages of 1), bf16 or a8w8
    (Q quantized per tensor inside the call), called the way the competition's
    aiter submissions call it. Import-guarded: skipped where aiter is absent."""

    def __init__(self, device, fp8):
        import torch
        try:
            import aiter  # noqa: F401
            from aiter.mla import mla_decode_fwd
            from aiter import get_mla_metadata_info_v1, get_mla_metadata_v1
        except Exception as e:  # noqa: BLE001
            raise Skip(f"aiter not importable (AMD ROCm only; {type(e).__name__})")
        if device == "cpu":
            raise Skip("aiter needs an AMD GPU")
        self.torch, self.device, self.fp8 = torch, device, fp8
        self.fwd, self.info, self.meta = mla_decode_fwd, get_mla_metadata_info_v1, get_mla_metadata_v1
        self.name = "aiter_fp8" if fp8 else "aiter_bf16"
        self.version = _version("amd-aiter", "aiter") + ", " + _torch_version()

    def load(self, c):
        from competition import layout_numpy, to_torch
        torch = self.torch
        q, kv_data, qo, kv, cfg = to_torch(layout_numpy(c), self.device)
        self.q, self.qo, self.kvi, self.cfg, self.total_q = q, qo, kv, cfg, q.shape[0]
        if self.fp8:
            self.kvbuf, self.kv_scale = kv_data["fp8"]
        else:
            self.kvbuf, self.kv_scale = kv_data["bf16"], None
        total_kv, n = self.kvbuf.shape[0], cfg["q_seq_len"]
        self.kv_indices = torch.arange(total_kv, dtype=torch.int32, device=self.device)
        self.last = (kv[1:] - kv[:-1]).to(torch.int32)
        self.splits = 16
        qdt = self.kvbuf.dtype
        info = self.info(cfg["batch_size"], n, 16, qdt, self.kvbuf.dtype, is_sparse=False,
                         fast_mode=False, num_kv_splits=self.splits, intra_batch_mode=True)
        work = [torch.empty(s, dtype=t, device=self.device) for s, t in info]
        names = ("work_meta_data", "work_indptr", "work_info_set", "reduce_indptr",
                 "reduce_final_map", "reduce_partial_map")
        self.work = dict(zip(names, work))
        w = self.work
        self.meta(qo, kv, self.last, 16, 1, True, w["work_meta_data"], w["work_info_set"],
                  w["work_indptr"], w["reduce_indptr"], w["reduce_final_map"],
                  w["reduce_partial_map"], page_size=1, kv_granularity=16, max_seqlen_qo=n,
                  uni_seqlen_qo=n, fast_mode=False, max_split_per_batch=self.splits,
                  intra_batch_mode=True, dtype_q=qdt, dtype_kv=self.kvbuf.dtype)

    def call(self):
        torch = self.torch
        q, qs = self.q, None
        if self.fp8:  # per-tensor Q quantization inside the call, as the competition's a8w8
            q, qs = quantize_q_per_tensor(torch, q, self.kvbuf.dtype)
        o = torch.empty((self.total_q, 16, 512), dtype=torch.bfloat16, device=self.device)
        kv4 = self.kvbuf.view(self.kvbuf.shape[0], 1, 1, 576)
        self.fwd(q.view(-1, 16, 576), kv4, o, self.qo, self.kvi, self.kv_indices, self.last,
                 self.cfg["q_seq_len"], page_size=1, nhead_kv=1, sm_scale=self.cfg["sm_scale"],
                 logit_cap=0.0, num_kv_splits=self.splits, q_scale=qs, kv_scale=self.kv_scale,
                 intra_batch_mode=True, **self.work)
        return o


class SubmissionPeer:
    """A competition submission (competition.py says the contract)."""

    def __init__(self, device, path):
        import torch
        from competition import load_submission
        self.torch, self.device, self.path = torch, device, path
        self.name = "sub:" + os.path.splitext(os.path.basename(path))[0]
        self.fn = load_submission(path)
        self.version = _torch_version()

    def load(self, c):
        from competition import layout_numpy, to_torch
        self.data = to_torch(layout_numpy(c), self.device)
        self.total_q = self.data[0].shape[0]
        # a copy of every input, to tell whether custom_kernel changed them
        self.pristine = [(k, t.detach().clone()) for k, t in _tensors(self.data)]

    def call(self):
        return self.fn(self.data)

    def inputs_changed(self):
        """The first input (by its place in data) that no longer holds the case's bytes, or None."""
        now = dict(_tensors(self.data))
        for k, t in self.pristine:
            u = now.get(k)
            if u is None or u.shape != t.shape or u.dtype != t.dtype or u.device != t.device:
                return k
            try:  # bit for bit: the bytes
                same = self.torch.equal(u.contiguous().view(self.torch.uint8), t.view(self.torch.uint8))
            except (RuntimeError, TypeError):
                try:  # a type without a byte view: by value
                    same = self.torch.equal(u, t)
                except (RuntimeError, TypeError):
                    continue  # neither: this one cannot be told
            if not same:
                return k
        return None


def _tensors(x, path="data"):
    """(path, tensor) for every tensor inside x (tuples, lists, dicts)."""
    if hasattr(x, "dtype") and hasattr(x, "shape") and hasattr(x, "clone"):
        yield path, x
    elif isinstance(x, (tuple, list)):
        for i, v in enumerate(x):
            yield from _tensors(v, f"{path}[{i}]")
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _tensors(v, f"{path}[{k!r}]")


def make_peer(spec, device):
    if spec.startswith("sub:"):
        return SubmissionPeer(device, spec[4:])
    if spec == "torch_bf16":
        return TorchPeer(device)
    if spec in ("flashinfer_bf16", "flashinfer_fp8"):
        return FlashInferPeer(device, spec.endswith("fp8"))
    if spec in ("flashmla_bf16", "flashmla_fp8"):
        return FlashMLAPeer(device, spec.endswith("fp8"))
    if spec in ("aiter_bf16", "aiter_fp8"):
        return AiterPeer(device, spec.endswith("fp8"))
    raise ValueError(f"unknown peer '{spec}' (known: {', '.join(PEERS)}, sub:FILE.py)")


# ---- the server -------------------------------------------------------------------

class Server:
    def __init__(self, peer, device, out):
        import torch
        self.peer, self.device, self.out, self.torch = peer, device, out, torch
        self.cuda = device != "cpu"
        self.flush = None
        self.nflush = 0
        self.loaded = False

    def say(self, line):
        self.out.write(line.replace("\n", " ") + "\n")
        self.out.flush()

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def checked_call(self):
        from competition import check_output
        out = self.peer.call()
        check_output(out, self.peer.total_q, self.who())
        return out

    def who(self):
        p = self.peer
        return os.path.basename(p.path) if isinstance(p, SubmissionPeer) else p.name

    def do_load(self, path):
        from competition import read_case
        self.peer.load(read_case(path))
        self.sync()
        self.loaded = True
        return "ok"

    def do_run(self, path):
        import numpy as np
        poison = getattr(self.peer, "poison_output", None)
        if poison:  # NaN where the validated call must write (a peer writing into our buffer)
            poison()
        out = self.checked_call()
        self.sync()
        bits = out.contiguous().view(self.torch.int16).cpu().numpy().view(np.uint16)
        bad = int((~self.torch.isfinite(out.float())).sum().item())
        with open(path, "wb") as f:
            f.write(bits.astype("<u2").tobytes())
        return f"ok {bad}"

    def do_warm(self):
        self.checked_call()
        self.sync()
        return "ok"

    def do_cold(self, nbytes):
        torch = self.torch
        n = int(nbytes)
        if self.flush is None or self.flush.numel() != n:
            self.flush = torch.empty(max(n, 1), dtype=torch.uint8, device=self.device)
        self.nflush += 1
        self.flush.fill_(self.nflush & 0xFF)  # outside the timed region
        if not self.cuda:
            t0 = time.perf_counter()
            self.peer.call()
            return f"ok {(time.perf_counter() - t0) * 1e6:.3f}"
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        self.peer.call()
        b.record()
        b.synchronize()
        return f"ok {a.elapsed_time(b) * 1e3:.3f}"

    def do_graph(self, iters):
        torch = self.torch
        n = int(iters)
        if not self.cuda:
            return "none no graphs on the CPU"
        try:
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(2):
                    self.peer.call()
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                self.peer.call()
            g.replay()
            self.sync()
        except Exception as e:  # noqa: BLE001 - a call that cannot be captured
            self.sync_quiet()
            from competition import exc_line
            return f"none not capturable ({type(e).__name__}: {exc_line(e)[:100]})"
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(n):
            g.replay()
        b.record()
        b.synchronize()
        return f"ok {a.elapsed_time(b) * 1e3 / max(n, 1):.3f}"

    def do_check(self):
        changed = getattr(self.peer, "inputs_changed", None)
        k = changed() if changed else None
        if k:
            return (f"err {self.who()}: custom_kernel changed its input {k} in place (its times are of other "
                    f"data; inputs are shared by every call)")
        return "ok"

    def sync_quiet(self):
        try:
            self.sync()
        except Exception:  # noqa: BLE001
            pass

    def serve(self, inp):
        from competition import CaseError, SubmissionError, exc_line
        for raw in inp:
            parts = raw.strip().split(" ", 1)
            cmd, arg = parts[0], (parts[1] if len(parts) > 1 else "")
            if cmd == "quit":
                return 0
            try:
                if cmd == "load":
                    r = self.do_load(arg)
                elif not self.loaded and cmd in ("run", "warm", "cold", "graph", "check"):
                    r = "err no case loaded"
                elif cmd == "run":
                    r = self.do_run(arg)
                elif cmd == "warm":
                    r = self.do_warm()
                elif cmd == "cold":
                    r = self.do_cold(arg)
                elif cmd == "graph":
                    r = self.do_graph(arg)
                elif cmd == "check":
                    r = self.do_check()
                else:
                    r = f"err unknown request '{cmd}'"
            except Skip as e:
                r = f"skip {e}"
            except (CaseError, SubmissionError) as e:
                r = f"err {e}"
            except Exception as e:  # noqa: BLE001 - a peer's failure is reported, not fatal
                if os.environ.get("MLAB_PEER_VERBOSE"):
                    import traceback
                    traceback.print_exc()
                r = f"err {self.who()}: {type(e).__name__}: {exc_line(e)[:200]}"
            self.say(r)
        return 0


def main(argv):
    args = argv[1:]
    device = "cuda"
    if "--device" in args:
        i = args.index("--device")
        device = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    # the protocol owns the real stdout; anything printed by a peer goes to stderr
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if len(args) != 1 or device not in ("cuda", "cpu"):
        proto.write("err usage: peer_server.py PEER [--device cuda|cpu]\n")
        proto.flush()
        return 2
    try:
        import torch  # noqa: F401
    except ImportError:
        proto.write("skip torch is not installed for this Python\n")
        proto.flush()
        return 0
    try:
        from competition import SubmissionError  # needs h5py and numpy
    except ImportError as e:
        proto.write(f"skip the peers' Python ({sys.executable}) lacks {e.name or e}: "
                    f"pip install h5py numpy there\n")
        proto.flush()
        return 0
    try:
        peer = make_peer(args[0], device)
    except Skip as e:
        proto.write(f"skip {e}\n")
        proto.flush()
        return 0
    except (SubmissionError, ValueError) as e:
        proto.write(f"err {e}\n")
        proto.flush()
        return 0
    if device == "cuda":
        import torch
        if not torch.cuda.is_available():
            proto.write("skip torch sees no GPU\n")
            proto.flush()
            return 0
    srv = Server(peer, device, proto)
    srv.say(f"ok {peer.version}")
    return srv.serve(sys.stdin)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
