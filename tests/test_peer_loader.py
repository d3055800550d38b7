#!/usr/bin/env python3
"""test_peer_loader: the submission loader and peer_server.py's protocol on
the CPU (needs torch; exit 77 without it).
  - custom_kernel's tensors hold the case file's bytes with the documented
    torch types and shapes (fp8 e4m3fn and e4m3fnuz cases)
  - a good submission's output reaches OUT.bin bit for bit; a submission that
    prints to stdout does not break the protocol
  - error paths, one line each naming the file: no custom_kernel, an
    exception inside it, wrong shape, wrong dtype, an aiter import, AMD-only
    inline assembly; NaN output is reported as its count of non-finite values
  - requests out of order or unknown are refused; cold replies microseconds,
    graph says "none" on the CPU
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlabtest  # noqa: E402
from mlabtest import check  # noqa: E402
import peertest as pt  # noqa: E402

pt.need_torch("test_peer_loader")
import torch  # noqa: E402
from competition import layout_numpy, read_case, to_torch, load_submission  # noqa: E402

tmp = mlabtest.scratch("peer_loader")
case = pt.gen(os.path.join(tmp, "c.h5"), "--kv-lens", "0,1,65,3", "--q-seq-len", "2", "--seed", "5")
fnuz = pt.gen(os.path.join(tmp, "fnuz.h5"), "--batch", "2", "--kv-len", "40", "--fp8", "e4m3fnuz")


def raw(t):
    return t.contiguous().view(torch.uint8).numpy().tobytes()


# ---- the data tuple, byte for byte ----
import h5py  # noqa: E402
for path, f8 in ((case, torch.float8_e4m3fn), (fnuz, torch.float8_e4m3fnuz)):
    q, kv_data, qo, kv, cfg = to_torch(layout_numpy(read_case(path)), "cpu")
    tag = os.path.basename(path)
    with h5py.File(path, "r") as f:
        fq, fkv, f8c = f["q"][()], f["kv_bf16"][()], f["kv_fp8"][()]
        fs, fm, fe = f["kv_fp8_scale"][()], f["kv_mxfp4"][()], f["kv_mxfp4_scale"][()]
        fqo, fkvi = f["qo_indptr"][()], f["kv_indptr"][()]
    tq, tkv = fqo[-1], fkvi[-1]
    check(q.dtype == torch.bfloat16 and tuple(q.shape) == (tq, 16, 576) and raw(q) == fq.tobytes(),
          f"{tag}: q bfloat16 [total_q,16,576] = /q")
    b = kv_data["bf16"]
    check(b.dtype == torch.bfloat16 and tuple(b.shape) == (tkv, 1, 576) and raw(b) == fkv.tobytes(),
          f"{tag}: kv_data['bf16'] bfloat16 [total_kv,1,576] = /kv_bf16")
    c8, s8 = kv_data["fp8"]
    check(c8.dtype == f8 and tuple(c8.shape) == (tkv, 1, 576) and raw(c8) == f8c.tobytes(),
          f"{tag}: kv_data['fp8'][0] {f8} = /kv_fp8 (got {c8.dtype})")
    check(s8.dtype == torch.float32 and tuple(s8.shape) == (1,) and raw(s8) == fs.astype("<f4").tobytes(),
          f"{tag}: kv_data['fp8'][1] float32 [1] = /kv_fp8_scale")
    pk, sc = kv_data["mxfp4"]
    want_pk = getattr(torch, "float4_e2m1fn_x2", torch.uint8)
    want_sc = getattr(torch, "float8_e8m0fnu", torch.uint8)
    check(pk.dtype == want_pk and tuple(pk.shape) == (tkv, 1, 288) and raw(pk) == fm.tobytes(),
          f"{tag}: kv_data['mxfp4'][0] {want_pk} [total_kv,1,288] = /kv_mxfp4 (got {pk.dtype})")
    scb = sc.view(torch.uint8).numpy()
    check(sc.dtype == want_sc and tuple(sc.shape) == (tkv, 24) and
          scb[:, :18].tobytes() == fe.tobytes() and not scb[:, 18:].any(),
          f"{tag}: kv_data['mxfp4'][1] {want_sc} [total_kv,24], padding 0")
    check(qo.dtype == kv.dtype == torch.int32 and qo.tolist() == fqo.tolist() and
          kv.tolist() == fkvi.tolist(), f"{tag}: indptrs int32")
    check(isinstance(cfg, dict) and cfg["batch_size"] == len(fqo) - 1, f"{tag}: config dict")


# ---- the protocol ----
def talk(spec, lines, timeout=300):
    p = subprocess.run([sys.executable, pt.SERVER, spec, "--device", "cpu"],
                       input="".join(l + "\n" for l in lines), capture_output=True, text=True,
                       timeout=timeout)
    return p.stdout.splitlines(), p.stderr


def sub(name):
    return "sub:" + os.path.join(pt.FIX, name)


total_q = int(read_case(case)["qo_indptr"][-1])
out_bin = os.path.join(tmp, "out.bin")

# good submission: output bit for bit what custom_kernel returns
rep, err = talk(sub("sub_torch_a8w8.py"), [f"load {case}", f"run {out_bin}", "cold 1000000",
                                          "graph 3", "quit"])
check(len(rep) == 5 and rep[0].startswith("ok torch"), f"good submission: greeting {rep[:1]}")
check(rep[1:3] == ["ok", "ok 0"], f"good submission: load and run replies {rep[1:3]}")
try:
    float(rep[3].split()[1])
    check(rep[3].startswith("ok "), f"cold replies microseconds: {rep[3]}")
except (IndexError, ValueError):
    check(False, f"cold replies microseconds: {rep[3:4]}")
check(rep[4].startswith("none "), f"graph on the CPU: none (got {rep[4:5]})")
direct = load_submission(os.path.join(pt.FIX, "sub_torch_a8w8.py"))(
    to_torch(layout_numpy(read_case(case)), "cpu"))
got = open(out_bin, "rb").read() if os.path.exists(out_bin) else b""
check(len(got) == total_q * 16 * 512 * 2, f"OUT.bin holds total_q*16*512 bf16 values ({len(got)} bytes)")
check(got == direct.contiguous().view(torch.int16).numpy().astype("<i2").tobytes(),
      "OUT.bin is custom_kernel's output, bit for bit")

# a submission that prints: the protocol survives, the text goes to stderr
noisy = os.path.join(tmp, "noisy.py")
with open(noisy, "w") as f:
    f.write("import torch\nprint('hello from import')\n"
            "def custom_kernel(data):\n    print('hello from the call')\n"
            "    return torch.zeros((data[0].shape[0], 16, 512), dtype=torch.bfloat16)\n")
rep, err = talk("sub:" + noisy, [f"load {case}", f"run {out_bin}", "quit"])
check(rep[1:] == ["ok", "ok 0"] and "hello from the call" in err and "hello" not in "".join(rep),
      f"a printing submission: replies {rep}, its text on stderr")

# error paths: (fixture, reply index, words the one line must hold)
for fix, at, words in [
        ("bad_no_kernel.py", 0, ["err bad_no_kernel.py:", "no custom_kernel"]),
        ("bad_raises.py", 2, ["err bad_raises.py:", "ValueError", "boom at item 3"]),
        ("bad_shape.py", 2, ["err bad_shape.py:", "[%d, 16, 576]" % total_q, "want bfloat16 [%d, 16, 512]" % total_q]),
        ("bad_dtype.py", 2, ["err bad_dtype.py:", "float32", "want bfloat16"]),
        ("bad_nan.py", 2, ["ok %d" % (total_q * 16 * 512)]),
        ("amd_aiter.py", 0, ["err amd_aiter.py:", "aiter", "AMD"]),
        ("amd_asm.py", 0, ["err amd_asm.py:", "v_rcp_f32_e32", "AMD"])]:  # refused at load
    rep, err = talk(sub(fix), [f"load {case}", f"run {out_bin}", "quit"])
    line = rep[at] if len(rep) > at else ""
    check(all(w in line for w in words), f"{fix}: reply {at} {line!r} holds {words}")
    check(all("\n" not in r for r in rep), f"{fix}: one line each")

# order and unknown requests
rep, _ = talk("torch_bf16", [f"run {out_bin}", "frobnicate", f"load {os.path.join(tmp, 'nope.h5')}",
                             "quit"])
check(len(rep) == 4 and rep[1] == "err no case loaded", f"run before load is refused: {rep[1:2]}")
check(rep[2:3] and rep[2].startswith("err unknown request"), f"unknown request refused: {rep[2:3]}")
check(rep[3:4] and rep[3].startswith("err ") and "nope.h5" in rep[3],
      f"a missing case file: one line naming it: {rep[3:4]}")
rep, _ = talk("nonesuch", [])
check(rep[:1] and rep[0].startswith("err unknown peer 'nonesuch'"), f"unknown peer: {rep[:1]}")

sys.exit(mlabtest.finish("test_peer_loader", tmp))
