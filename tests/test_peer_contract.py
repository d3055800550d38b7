#!/usr/bin/env python3
"""test_peer_contract: what the peers promise without needing torch.
  - the competition layout built from a case file holds the file's bytes,
    with the documented types, shapes, scale padding and config
    (variable lengths, an empty item, q_seq_len 2; fp8 e4m3fn and e4m3fnuz)
  - FlashInfer's paging of the KV rows (item starts on page boundaries)
  - the AMD-only markers find inline GCN assembly and aiter, and nothing in a
    plain PyTorch submission
  - mlabench run --peers refuses bad lists (exit 2) and unreadable
    submissions (exit 4) with one line naming the item
  - a Python without torch makes every peer "skipped": a line, no row, exit 0
"""
import os
import stat
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlabtest  # noqa: E402
from mlabtest import check  # noqa: E402
import peertest as pt  # noqa: E402
from competition import layout_numpy, read_case, amd_only_markers  # noqa: E402

tmp = mlabtest.scratch("peer_contract")


def layout_matches_file(path, fp8_name):
    import h5py
    c = read_case(path)
    (q, qd), kvd, (qo, qod), (kv, kvdn), cfg = layout_numpy(c)
    with h5py.File(path, "r") as f:
        fq, fkv, f8 = f["q"][()], f["kv_bf16"][()], f["kv_fp8"][()]
        fs, fm, fe = f["kv_fp8_scale"][()], f["kv_mxfp4"][()], f["kv_mxfp4_scale"][()]
        fqo, fkvi = f["qo_indptr"][()], f["kv_indptr"][()]
        sm = float(f.attrs["sm_scale"])
    tag = os.path.basename(path)
    check(qd == "bfloat16" and q.dtype == np.uint16 and q.tobytes() == fq.tobytes(),
          f"{tag}: q is the file's /q bits as bfloat16")
    a, n = kvd["bf16"]
    check(n == "bfloat16" and a.shape == fkv.shape and a.tobytes() == fkv.tobytes(),
          f"{tag}: kv_data['bf16'] is /kv_bf16")
    (codes, cn), (scale, sn) = kvd["fp8"]
    check(cn == fp8_name and codes.tobytes() == f8.tobytes() and codes.shape == f8.shape,
          f"{tag}: kv_data['fp8'][0] is /kv_fp8 as {fp8_name} (got {cn})")
    check(sn == "float32" and scale.shape == (1,) and scale.tobytes() == fs.astype("<f4").tobytes(),
          f"{tag}: kv_data['fp8'][1] is /kv_fp8_scale, float32 [1]")
    (packed, pn), (sc, scn) = kvd["mxfp4"]
    check(pn == "float4_e2m1fn_x2" and packed.shape == (fm.shape[0], 1, 288) and
          packed.tobytes() == fm.tobytes(), f"{tag}: kv_data['mxfp4'][0] is /kv_mxfp4 [total_kv,1,288]")
    check(scn == "float8_e8m0fnu" and sc.shape == (fe.shape[0], 24) and
          sc[:, :18].tobytes() == fe.tobytes() and not sc[:, 18:].any(),
          f"{tag}: mxfp4 scales padded to 24 columns, 0..17 = /kv_mxfp4_scale, the rest 0")
    check(qod == kvdn == "int32" and qo.dtype == kv.dtype == np.int32 and
          qo.tobytes() == fqo.astype("<i4").tobytes() and kv.tobytes() == fkvi.astype("<i4").tobytes(),
          f"{tag}: indptrs are the file's, int32")
    lens_q, lens_kv = np.diff(fqo), np.diff(fkvi)
    want = {"batch_size": len(fqo) - 1, "num_heads": 16, "num_kv_heads": 1, "qk_head_dim": 576,
            "kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 512,
            "q_seq_len": int(lens_q.max()), "kv_seq_len": int(lens_kv.max())}
    for k, v in want.items():
        check(cfg.get(k) == v, f"{tag}: config[{k!r}] = {cfg.get(k)!r}, want {v!r}")
    check(abs(cfg["sm_scale"] - sm) == 0 and abs(sm - 1 / 24) < 1e-7, f"{tag}: config sm_scale")


# ---- the layout ----
a = pt.gen(os.path.join(tmp, "var.h5"), "--kv-lens", "0,1,65,3", "--q-seq-len", "2", "--seed", "3",
           "--tie", "even")
b = pt.gen(os.path.join(tmp, "fnuz.h5"), "--batch", "2", "--kv-len", "70", "--fp8", "e4m3fnuz",
           "--seed", "4")
layout_matches_file(a, "float8_e4m3fn")
layout_matches_file(b, "float8_e4m3fnuz")

# ---- FlashInfer's pages (harness/peers/peer_server.py page_kv) ----
from peer_server import page_kv  # noqa: E402
rows = np.arange(1, 1 + 200 * 576, dtype=np.int32).reshape(200, 576)
ind = [0, 0, 1, 65, 65, 200]  # items of 0, 1, 64, 0 and 135 rows
pg, pind, lens = page_kv(rows, ind, 64)
check(pind.tolist() == [0, 0, 1, 2, 2, 5] and lens.tolist() == [0, 1, 64, 0, 135],
      f"page_kv: page indptr {pind.tolist()}, lengths {lens.tolist()}")
check(pg.shape == (5, 64, 576), f"page_kv: 5 pages of 64 rows ({pg.shape})")
flat = pg.reshape(-1, 576)
ok = True
for b in range(5):
    for j in range(ind[b + 1] - ind[b]):
        ok &= bool((flat[pind[b] * 64 + j] == rows[ind[b] + j]).all())
check(ok, "page_kv: item b's row j is row j of page_indptr[b]'s pages")
used = sum(-(-x // 64) * 64 for x in lens.tolist())
check(int((flat != 0).any(axis=1).sum()) == 200 and used == 320,
      "page_kv: the 120 rows past the items' ends are zero")
e, ei, el = page_kv(rows[:0], [0, 0], 64)
check(e.shape == (1, 64, 576) and ei.tolist() == [0, 0] and el.tolist() == [0],
      "page_kv: an all-empty case still gets one (unused) page")

# ---- AMD-only markers ----
src = {n: open(os.path.join(pt.FIX, n)).read() for n in ("amd_asm.py", "amd_aiter.py",
                                                         "sub_torch_a8w8.py")}
m = amd_only_markers(src["amd_asm.py"])
check(any("v_rcp_f32_e32" in x for x in m), f"amd_asm.py: markers name v_rcp_f32_e32 (got {m})")
m = amd_only_markers(src["amd_aiter.py"])
check(any("aiter" in x for x in m), f"amd_aiter.py: markers name aiter (got {m})")
check(amd_only_markers(src["sub_torch_a8w8.py"]) == [], "a plain PyTorch submission has no AMD-only marker")

# ---- --peers usage ----
for args, code, word in [
        (["--peers", "bogus"], 2, "bogus"),
        (["--peers", "torch,flashinfer,nope"], 2, "nope"),
        (["--peers", "submission:" + os.path.join(pt.FIX, "sub_torch_a8w8.py") + "@fp16"], 2, "fp16"),
        (["--peers", "submission:" + os.path.join(tmp, "absent.py")], 4, "absent.py"),
        (["--peers-only"], 2, "--peers")]:
    r = pt.run_mlabench(["run", "--cpu-only", "--no-time", *args])
    err = r.stderr.strip().splitlines()
    check(r.returncode == code, f"run {' '.join(args)}: exit {r.returncode}, want {code}")
    check(len(err) == 1 and word in err[0], f"run {' '.join(args)}: one line naming {word!r}: {err}")

# ---- no torch: skipped, no row, exit 0 ----
wrap = os.path.join(tmp, "python-without-torch")
with open(wrap, "w") as f:
    f.write("#!/bin/sh\nexec '%s' -c 'import runpy, sys; sys.modules[\"torch\"] = None; "
            "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name=\"__main__\")' \"$@\"\n"
            % sys.executable)
os.chmod(wrap, os.stat(wrap).st_mode | stat.S_IXUSR)
res = os.path.join(tmp, "r.h5")
r = pt.run_mlabench(["run", a, "--no-time", "--quiet", "--peers",
                     "torch,flashinfer,flashmla,submission:" + os.path.join(pt.FIX, "sub_torch_a8w8.py"),
                     "--peer-python", wrap, "-o", res], {"MLAB_PEER_DEVICE": "cpu"})
check(r.returncode == 0, f"peers without torch: exit {r.returncode}, want 0 ({r.stderr.strip()})")
skips = [l for l in r.stdout.splitlines() if "skipped: torch is not installed" in l]
check(len(skips) == 6, f"peers without torch: 6 'skipped' lines (got {len(skips)}):\n{r.stdout}")
if os.path.exists(res):
    check(pt.rows(res, "peer") == [], "a skipped peer leaves no row")

sys.exit(mlabtest.finish("test_peer_contract", tmp))
