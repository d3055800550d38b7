#!/usr/bin/env python3
"""test_peer_gpu (label gpu): every peer on awkward cases on the GPU,
validated and timed by mlabench run --peers-only (MLAB_PEER_DEVICE=cuda).
Exit 77 without a GPU that torch can use.
  cases: variable lengths with an empty item and one-row items (q_seq_len 1),
         q_seq_len 3 with items shorter than 3 rows (queries that see
         nothing), one long item
  peers: torch, flashinfer (bf16, fp8), flashmla (bf16, fp8), aiter (AMD), the plain-PyTorch a8w8
         submission fixture; a peer that is not installed is skipped and
         listed, one that runs must pass validation on every case
  and: on NVIDIA every timed peer row has its clock and power/thermal-limited
       time (NVML, read around its sampling as for the variants);
       on a non-AMD GPU, a submission with AMD-only inline assembly fails
       with one line naming the instruction (exit 5)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlabtest  # noqa: E402
from mlabtest import check  # noqa: E402
import peertest as pt  # noqa: E402

pt.need_torch("test_peer_gpu")
import torch  # noqa: E402
if not torch.cuda.is_available():
    print("test_peer_gpu: skipped: torch sees no GPU")
    sys.exit(77)

tmp = mlabtest.scratch("peer_gpu")
cases = [pt.gen(os.path.join(tmp, "varlen.h5"), "--kv-lens", "0,1,2,63,64,65,129,1000", "--seed", "31"),
         pt.gen(os.path.join(tmp, "q3.h5"), "--kv-lens", "1,2,3,4,64,65,130", "--q-seq-len", "3",
                "--seed", "32"),
         pt.gen(os.path.join(tmp, "long.h5"), "--batch", "1", "--kv-len", "8191", "--seed", "33")]
GPU = {"MLAB_PEER_DEVICE": "cuda"}
peers = "torch,flashinfer,flashmla,aiter,submission:" + os.path.join(pt.FIX, "sub_torch_a8w8.py")
ran, skipped = set(), set()
for c in cases:
    res = os.path.join(tmp, os.path.basename(c) + ".res.h5")
    r = pt.run_mlabench(["run", c, "--peers-only", "--peers", peers, "--quiet", "--max-time", "0.3",
                         "-o", res], GPU, timeout=2000)
    tag = os.path.basename(c)
    print(f"== {tag} (exit {r.returncode})")
    print("\n".join(l for l in r.stdout.splitlines() if l.startswith("  ") and "cpu_ref" not in l
                    and "format" not in l))
    for l in r.stdout.splitlines():
        if "skipped:" in l:
            skipped.add(l.split()[0])
    rows = pt.rows(res, "peer") if os.path.exists(res) else []
    check(r.returncode in (0, 5), f"{tag}: exit {r.returncode}: {r.stderr[-300:]}")
    for x in rows:
        ran.add(x["variant"])
        check(x["valid"] == 1, f"{tag}: {x['variant']} fails validation "
              f"(rel_rms {x['kernel_rel_rms']:.3e}, {x['kernel_mismatches']} mismatches, {x['stop_reason']})")
        if x["valid"] == 1:
            check(x["nsamples"] >= 1 and x["median_us"] > 0, f"{tag}: {x['variant']} is timed")
            # the run's GPU seen around its sampling, as a variant's row (NVML: NVIDIA only)
            if not getattr(torch.version, "hip", None):
                check(x["sm_clock_mhz"] > 0 and x["slow_span_us"] > 0 and 0 <= x["slow_us"] <= x["slow_span_us"],
                      f"{tag}: {x['variant']}'s row has its clock ({x['sm_clock_mhz']} MHz) and its "
                      f"power/thermal-limited time ({x['slow_us']} of {x['slow_span_us']} us)")
check("torch_bf16" in ran, "the torch baseline ran")
check("sub:sub_torch_a8w8" in ran, "the submission fixture ran")
print(f"peers that ran: {sorted(ran)}; skipped (not installed or not for this GPU): {sorted(skipped)}")

if not getattr(torch.version, "hip", None):
    res = os.path.join(tmp, "amd.res.h5")
    r = pt.run_mlabench(["run", cases[0], "--peers-only", "--no-time", "--quiet", "--peers",
                         "submission:" + os.path.join(pt.FIX, "amd_asm.py"), "-o", res], GPU)
    line = [l for l in r.stdout.splitlines() if "ERROR" in l]
    check(r.returncode == 5 and line and "amd_asm.py" in line[0] and "v_rcp_f32_e32" in line[0],
          f"AMD-only assembly on NVIDIA: exit {r.returncode}, {line}")
    print(line[0] if line else "(no ERROR line)")

sys.exit(mlabtest.finish("test_peer_gpu", tmp))
