"""competition.py: an mlabench case file in the amd-mixed-mla competition's
input layout, and the loader of competition submissions.

A competition submission is a Python file defining custom_kernel(data) (it
may `from task import input_t, output_t`; a stand-in `task` module is given
when none is importable). data is a 5-tuple, built here from the case file:

  q          torch.bfloat16  [total_q, 16, 576]   the case's /q
  kv_data    dict:
    "bf16"   torch.bfloat16  [total_kv, 1, 576]   /kv_bf16 (a bare tensor)
    "fp8"    (codes, scale): codes torch.float8_e4m3fn (torch.float8_e4m3fnuz
             when the case's fp8_format says so) [total_kv, 1, 576] = /kv_fp8;
             scale torch.float32 [1] = /kv_fp8_scale (x ~ code * scale)
    "mxfp4"  (packed, scales): packed torch.float4_e2m1fn_x2 (uint8 where
             torch has no such type) [total_kv, 1, 288] = /kv_mxfp4, element
             2j in the low nibble of byte j; scales torch.float8_e8m0fnu
             (uint8 where torch has none) [total_kv, 24]: columns 0..17 =
             /kv_mxfp4_scale, columns 18..23 padding holding 0, as the
             competition's aiter padded its scale array to 24 columns
  qo_indptr  torch.int32     [batch + 1]          /qo_indptr
  kv_indptr  torch.int32     [batch + 1]          /kv_indptr
  config     dict: batch_size, num_heads 16, num_kv_heads 1, qk_head_dim 576,
             kv_lora_rank 512, qk_rope_head_dim 64, v_head_dim 512,
             q_seq_len and kv_seq_len (the case's uniform lengths; the largest
             item's when they vary), sm_scale (the case's, 1/24)

All tensors are contiguous, on the device the peer runs on, and hold exactly
the file's bytes (no conversion: the views reinterpret the stored bits).
custom_kernel must return a torch.bfloat16 tensor [total_q, 16, 512].

read_case() and layout_numpy() need only numpy and h5py; the torch half
(to_torch, load_submission) imports torch when called.
"""
import importlib.machinery
import importlib.util
import os
import re
import sys
import tokenize
import types

import h5py
import numpy as np

HEADS, DQK, DV, ROPE, LORA = 16, 576, 512, 64, 512
NBLK, SCALE_COLS = 18, 24


class CaseError(Exception):
    """A case file mlabench's peers cannot read (one line, names the file)."""


def read_case(path):
    """The case file's tensors (raw stored bits as numpy arrays) and the root
    attributes the layout needs."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise CaseError(f"{path}: cannot open as HDF5 ({e})")
    with f:
        if f.attrs.get("format") not in ("mlabench-case", b"mlabench-case"):
            raise CaseError(f"{path}: not an mlabench-case file")
        c = {}
        for name in ("q", "kv_bf16", "kv_fp8", "kv_fp8_scale", "kv_mxfp4", "kv_mxfp4_scale",
                     "qo_indptr", "kv_indptr"):
            if name not in f:
                raise CaseError(f"{path}: /{name}: missing")
            c[name] = f[name][()]
        fmt = f.attrs.get("fp8_format", "float8_e4m3fn")
        c["fp8_format"] = fmt.decode() if isinstance(fmt, bytes) else str(fmt)
        c["sm_scale"] = float(f.attrs.get("sm_scale", 1.0 / 24))
    c["batch"] = int(c["qo_indptr"].shape[0]) - 1
    c["path"] = path
    return c


def layout_numpy(c):
    """The competition layout with numpy arrays of the stored bits: the same
    structure as the data tuple, each tensor given as (array, dtype name)."""
    total_kv = c["kv_bf16"].shape[0]
    qo, kv = c["qo_indptr"].astype(np.int32), c["kv_indptr"].astype(np.int32)
    scales = np.zeros((total_kv, SCALE_COLS), dtype=np.uint8)
    scales[:, :NBLK] = c["kv_mxfp4_scale"]
    qlens, kvlens = np.diff(qo), np.diff(kv)
    config = {
        "batch_size": c["batch"],
        "num_heads": HEADS,
        "num_kv_heads": 1,
        "qk_head_dim": DQK,
        "kv_lora_rank": LORA,
        "qk_rope_head_dim": ROPE,
        "v_head_dim": DV,
        "q_seq_len": int(qlens.max()) if qlens.size else 0,
        "kv_seq_len": int(kvlens.max()) if kvlens.size else 0,
        "sm_scale": c["sm_scale"],
    }
    return (
        (c["q"].astype(np.uint16, copy=False), "bfloat16"),
        {
            "bf16": (c["kv_bf16"].astype(np.uint16, copy=False), "bfloat16"),
            "fp8": ((c["kv_fp8"].astype(np.uint8, copy=False), c["fp8_format"]),
                    (c["kv_fp8_scale"].astype(np.float32).reshape(1), "float32")),
            "mxfp4": ((c["kv_mxfp4"].astype(np.uint8, copy=False), "float4_e2m1fn_x2"),
                      (scales, "float8_e8m0fnu")),
        },
        (qo, "int32"),
        (kv, "int32"),
        config,
    )


def _tensor(torch, arr, dtype_name, device):
    """arr's bits as a torch tensor of the named type on device."""
    t = torch.from_numpy(np.ascontiguousarray(arr))
    want = getattr(torch, dtype_name, None)
    if want is not None and want != t.dtype:
        t = t.view(want)  # same width: a reinterpretation, never a conversion
    return t.to(device).contiguous()


def to_torch(layout, device):
    """layout_numpy()'s structure as the data tuple custom_kernel takes."""
    import torch
    (q, qd), kvd, (qo, _), (kv, _), config = layout
    kv_data = {
        "bf16": _tensor(torch, *kvd["bf16"], device),
        "fp8": tuple(_tensor(torch, a, n, device) for a, n in kvd["fp8"]),
        "mxfp4": tuple(_tensor(torch, a, n, device) for a, n in kvd["mxfp4"]),
    }
    return (_tensor(torch, q, qd, device), kv_data, _tensor(torch, qo, "int32", device),
            _tensor(torch, kv, "int32", device), dict(config))


# ---- submissions --------------------------------------------------------------

class SubmissionError(Exception):
    """A submission that cannot run here; the message is one line."""


# What only AMD GPUs run, as it shows in a submission's source.
_AMD_ONLY = [
    (re.compile(r"""["']\s*(v_[a-z0-9_]+|s_[a-z0-9_]+|ds_[a-z0-9_]+|buffer_[a-z0-9_]+)"""),
     "AMD GCN/CDNA inline assembly"),
    (re.compile(r"\bwaves_per_eu\b"), "Triton's AMD-only waves_per_eu option"),
    (re.compile(r"\bmatrix_instr_nonkdim\b"), "Triton's AMD-only matrix_instr_nonkdim option"),
    (re.compile(r"\bfloat8e4b8\b|\bfloat8e5b16\b"), "AMD's fnuz fp8 types"),
    (re.compile(r"^\s*(from|import)\s+aiter\b", re.M), "AMD's aiter library"),
]


def amd_only_markers(source):
    """The AMD-only features a submission's source uses, e.g.
    ["AMD GCN/CDNA inline assembly (v_rcp_f32_e32)"]."""
    found = []
    for rx, what in _AMD_ONLY:
        m = rx.search(source)
        if m:
            tok = m.group(1) if m.groups() and m.group(1) and m.group(1) not in ("from", "import") \
                else m.group(0).strip()
            found.append(f"{what} ({tok})")
    return found


def _ensure_task_module():
    """A stand-in for the competition's `task` module (input_t, output_t)
    when none can be imported."""
    try:
        import task  # noqa: F401
        return
    except ImportError:
        pass
    import typing
    m = types.ModuleType("task")
    m.input_t = typing.Any
    m.output_t = typing.Any
    sys.modules["task"] = m


def _on_amd():
    try:
        import torch
        return getattr(torch.version, "hip", None) is not None
    except ImportError:
        return False


def exc_line(e):
    """An exception's first line of text, or a word saying it has none that
    can be read (a submission's exception whose __str__ itself raises)."""
    try:
        msg = str(e).strip().splitlines()
    except Exception:  # noqa: BLE001 - whatever its __str__ raised
        return "(its message could not be read)"
    return msg[0] if msg else ""


def _explain(path, source, e, during):
    """One line: file, what failed, and why when the source says."""
    name = os.path.basename(path)
    first = exc_line(e)
    if len(first) > 160:
        first = first[:157] + "..."
    line = f"{name}: {during} raised {type(e).__name__}: {first}"
    if isinstance(e, ModuleNotFoundError) and getattr(e, "name", "") and \
            e.name.split(".")[0] == "aiter":
        return f"{name}: imports aiter, AMD's ROCm kernel library, which is not installed here " \
               f"(the submission runs on AMD GPUs only)"
    if not _on_amd():
        amd = amd_only_markers(source)
        if amd:
            line += f"; the file uses {', '.join(amd)}, which this non-AMD GPU cannot run"
    return line


def load_submission(path):
    """Import a submission file; returns its custom_kernel. Raises
    SubmissionError with one line naming the file and the cause."""
    name = os.path.basename(path)
    try:
        with tokenize.open(path) as f:  # the encoding Python reads it in (a coding line, else UTF-8)
            source = f.read()
    except OSError as e:
        raise SubmissionError(f"{path}: cannot read ({e.strerror})")
    except (SyntaxError, UnicodeDecodeError) as e:  # an unknown coding, bytes not of it
        raise SubmissionError(f"{name}: not Python source in its encoding ({' '.join(str(e).split())[:160]})")
    if not _on_amd():
        # refused before anything runs: compiling AMD-only assembly for another
        # GPU can end the process inside the compiler (LLVM's fatal error on an
        # unknown register constraint, seen with Triton on the H200: exit 1
        # with no message of ours)
        amd = amd_only_markers(source)
        if amd:
            raise SubmissionError(f"{name}: uses {', '.join(amd)}, which this non-AMD GPU cannot run")
    _ensure_task_module()
    d = os.path.dirname(os.path.abspath(path))
    if d not in sys.path:
        sys.path.insert(0, d)  # a submission's own helper modules
    modname = "mlab_submission_" + re.sub(r"\W", "_", os.path.splitext(name)[0])
    # any file name (the competition's files may end in .py.txt): Python source
    loader = importlib.machinery.SourceFileLoader(modname, path)
    spec = importlib.util.spec_from_loader(modname, loader)
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = path
    sys.modules[modname] = mod
    try:
        spec.loader.exec_module(mod)
    except SyntaxError as e:
        raise SubmissionError(f"{name}: line {e.lineno}: syntax error: {e.msg}")
    except BaseException as e:  # noqa: B902 - a submission may raise anything, SystemExit too
        raise SubmissionError(_explain(path, source, e, "import"))
    fn = getattr(mod, "custom_kernel", None)
    if fn is None:
        raise SubmissionError(f"{name}: defines no custom_kernel(data)")
    if not callable(fn):
        raise SubmissionError(f"{name}: custom_kernel is a {type(fn).__name__}, not a function")

    def call(data):
        try:
            return fn(data)
        except BaseException as e:  # noqa: B902
            raise SubmissionError(_explain(path, source, e, "custom_kernel"))
    return call


def check_output(out, total_q, who):
    """Raise SubmissionError unless out is a bf16 tensor [total_q, 16, 512]."""
    import torch
    if not isinstance(out, torch.Tensor):
        raise SubmissionError(f"{who}: returned a {type(out).__name__}, "
                              f"want a torch.bfloat16 tensor [{total_q}, {HEADS}, {DV}]")
    if tuple(out.shape) != (total_q, HEADS, DV) or out.dtype != torch.bfloat16:
        raise SubmissionError(f"{who}: returned {str(out.dtype).replace('torch.', '')} "
                              f"{list(out.shape)}, want bfloat16 [{total_q}, {HEADS}, {DV}]")
