#!/usr/bin/env python3
"""test_peer_run: mlabench run --peers end to end, on the CPU
(MLAB_PEER_DEVICE=cpu; needs torch, exit 77 without).
  - the torch baseline and a plain-PyTorch a8w8 submission pass validation
    against mlabench's references (bf16 / a8w8) on awkward items (an empty
    item, one row, q_seq_len 3) and are timed through the sampler: rows of
    kind "peer" with their version, format, tolerance and samples
  - a NaN submission fails validation (valid 0, not timed); a raising, a
    hanging (killed at the time limit) or a crashing one is recorded as
    peer_error and the next peer still runs; any of them makes the run exit 5
  - a peer that is not installed (FlashInfer here, or aiter; FlashMLA without
    its pack, or with a pack built for another torch) is skipped: a line, no
    row; alone it leaves exit 0
  - the sampler's options (--max-samples, --rse) hold for peers, and the
    flush size is mlabench's
  - the embedded default case reaches the peers through a temporary file
  - mlabench export lists the peer rows
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlabtest  # noqa: E402
from mlabtest import check  # noqa: E402
import peertest as pt  # noqa: E402

pt.need_torch("test_peer_run")
tmp = mlabtest.scratch("peer_run")
case = pt.gen(os.path.join(tmp, "awk.h5"), "--kv-lens", "0,1,65,130", "--q-seq-len", "3",
              "--seed", "21")
CPU = {"MLAB_PEER_DEVICE": "cpu", "TMPDIR": tmp}  # its own TMPDIR: the temporary files are checked
fast = ["--min-samples", "2", "--max-samples", "3", "--max-time", "0.2", "--quiet"]


def peer_skips(out, peer):
    """How many of PEER_bf16 / PEER_fp8's lines say skipped (with a GPU, the run's
    own variants print lines of their own, mxfp4_mfma_scale's skipped)."""
    return sum(l.split()[:2] in ([peer + "_bf16", "skipped:"], [peer + "_fp8", "skipped:"])
               for l in out.splitlines())


def fx(name, fmt=""):
    return "submission:" + os.path.join(pt.FIX, name) + fmt


res = os.path.join(tmp, "r.h5")
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers",
                     ",".join(["torch", fx("sub_torch_a8w8.py"), fx("bad_nan.py", "@bf16"),
                               fx("bad_raises.py"), "aiter"])], CPU)
check(r.returncode == 5, f"a failing peer makes the run exit 5 (got {r.returncode}): {r.stderr[-300:]}")
rows = {x["variant"]: x for x in pt.rows(res, "peer")} if os.path.exists(res) else {}
check(sorted(rows) == ["sub:bad_nan", "sub:bad_raises", "sub:sub_torch_a8w8", "torch_bf16"],
      f"one row per peer that ran, none for skipped aiter: {sorted(rows)}")
t = rows.get("torch_bf16", {})
check(t.get("valid") == 1 and t.get("kv_format") == "bf16" and t.get("kernel_tol") == "kernel:bf16",
      f"torch_bf16 passes kernel:bf16: {t.get('valid')} {t.get('kernel_tol')} rel_rms {t.get('kernel_rel_rms')}")
check(t.get("nsamples", 0) >= 1 and t.get("median_us", 0) > 0 and
      t.get("stop_reason") in ("rse", "time_limit", "max_samples"),
      f"torch_bf16 timed by the sampler: {t.get('nsamples')} samples ({t.get('stop_reason')})")
check(t.get("peer_version", "").startswith("torch ") and t.get("peer_version", "").endswith("(cpu)"),
      f"torch_bf16 version: {t.get('peer_version')!r}")
check(t.get("variant_id") == -100 and t.get("total_q") == 12, "peer rows: id -100.., the case's shape")
s = rows.get("sub:sub_torch_a8w8", {})
check(s.get("valid") == 1 and s.get("kv_format") == "fp8" and s.get("kernel_tol") == "kernel:fp8",
      f"the a8w8 fixture passes against the a8w8 reference: {s.get('valid')} {s.get('kernel_rel_rms')}")
check(s.get("nsamples", 0) >= 1 and s.get("median_us", 0) > 0, "the a8w8 fixture is timed")
n = rows.get("sub:bad_nan", {})
check(n.get("valid") == 0 and n.get("nsamples") == 0 and n.get("kernel_nonfinite_disagree", 0) > 0,
      f"NaN output fails validation, not timed: {n.get('valid')} {n.get('nsamples')}")
e = rows.get("sub:bad_raises", {})
check(e.get("valid") == 0 and e.get("stop_reason") == "peer_error", f"a raising submission: {e.get('stop_reason')}")
check("ERROR bad_raises.py: custom_kernel raised ValueError: boom at item 3" in r.stdout,
      "the raising submission's one line is printed")
check(any(l.strip().startswith("aiter_bf16") and "skipped" in l for l in r.stdout.splitlines()),
      "aiter is reported skipped")

# the timing options reach the peers: an unreachable rse stops at max_samples
r = pt.run_mlabench(["run", case, "--quiet", "--min-samples", "1", "--max-samples", "4",
                     "--rse", "1e-12", "--max-time", "120", "-o", res, "--peers", "torch"], CPU)
t = (pt.rows(res, "peer") or [{}])[0] if os.path.exists(res) else {}
check(r.returncode == 0 and t.get("nsamples") == 4 and t.get("stop_reason") == "max_samples",
      f"--max-samples 4 holds for peers: {t.get('nsamples')} samples ({t.get('stop_reason')})")
check("flush 512 MB" in r.stdout, "the flush size is mlabench's (512 MB without a GPU's L2)")

# a hanging submission is killed at the time limit, a crashing one reported;
# the run goes on to the next peer
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers",
                     ",".join([fx("bad_hang.py"), fx("bad_crash.py"), "torch"])],
                    dict(CPU, MLAB_PEER_TIMEOUT="8"))
rr = {x["variant"]: x for x in pt.rows(res, "peer")} if os.path.exists(res) else {}
check(r.returncode == 5, f"hang and crash: exit {r.returncode}, want 5")
check(rr.get("sub:bad_hang", {}).get("stop_reason") == "peer_error" and
      "no reply within 8 s (killed)" in r.stdout, "a hanging submission is killed and reported")
check(rr.get("sub:bad_crash", {}).get("stop_reason") == "peer_error" and
      "died (signal 6)" in r.stdout, f"a crashing submission is reported:\n{r.stdout[-600:]}")
check(rr.get("torch_bf16", {}).get("valid") == 1, "the next peer still runs")

# FlashInfer: a line saying why, no row, exit 0 (here it cannot run: no GPU)
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "flashinfer"], CPU)
check(r.returncode == 0, f"skipped peers alone: exit 0 (got {r.returncode})")
check(peer_skips(r.stdout, "flashinfer") == 2, f"flashinfer_bf16 and _fp8 skipped:\n{r.stdout[-600:]}")
check(pt.rows(res, "peer") == [] if os.path.exists(res) else False, "no row for a skipped peer")

# FlashMLA: without a pack (MLAB_FLASHMLA_DIR unset) and with one built for
# another torch, a line each saying why, no row, exit 0
for env, why in [({"MLAB_FLASHMLA_DIR": ""}, "no FlashMLA pack"),
                 ({"MLAB_FLASHMLA_DIR": os.path.join(tmp, "fmla")}, "built for torch 0.0.0")]:
    if env["MLAB_FLASHMLA_DIR"]:
        os.makedirs(env["MLAB_FLASHMLA_DIR"], exist_ok=True)
        with open(os.path.join(env["MLAB_FLASHMLA_DIR"], "VERSION"), "w") as f:
            f.write("vllm 0.0.0 torch 0.0.0\n")
    r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "flashmla"], dict(CPU, **env))
    lines = [l for l in r.stdout.splitlines() if l.split()[:1] in (["flashmla_bf16"], ["flashmla_fp8"])]
    check(r.returncode == 0 and peer_skips(r.stdout, "flashmla") == 2 and all(why in l for l in lines),
          f"flashmla ({why}): exit 0, flashmla_bf16 and _fp8 skipped saying so:\n{r.stdout[-600:]}")
    check(pt.rows(res, "peer") == [] if os.path.exists(res) else False, "no row for a skipped peer")

# the embedded default case (no file): peers read it from a temporary file
r = pt.run_mlabench(["run", "--no-time", "--quiet", "--peers-only", "--peers", "torch", "-o", res], CPU)
rr = pt.rows(res, "peer") if os.path.exists(res) else []
check(r.returncode == 0 and len(rr) == 1 and rr[0]["valid"] == 1 and rr[0]["batch"] == 4,
      f"default case through a temporary file: exit {r.returncode}, rows {len(rr)}")
check(not [f for f in os.listdir(tmp) if f.startswith("mlab_peer_")],
      "the temporary case and output files are removed")
check(pt.rows(res, "gpu") == [], "--peers-only runs no variant")

# export lists peers like variants
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "torch"], CPU)
csv = os.path.join(tmp, "r.csv")
x = subprocess.run([pt.BIN, "export", res, "-o", csv], capture_output=True, text=True)
check(x.returncode == 0 and "torch_bf16" in open(csv).read(), "export lists the peer row")

sys.exit(mlabtest.finish("test_peer_run", tmp))
