#!/usr/bin/env python3
"""test_torch_snippet.py: the torch snippet of data/README.md ("Your own
tensors"), run exactly as printed there, writes a file that `mlabench import`
turns into a case which `check --requant` passes (0 differing bytes) and
`run` runs (--cpu-only here; the GPU variants too when the build has a GPU
back end and a GPU is there).

The snippet is taken from the README text (the python block after "From
torch:"), so a README edit that breaks it fails this test. Tensors: 3 items
of 100, 700, 1500 kv rows, one query row each, from torch's generator (CUDA
when there is one, else CPU).
Exit 0 pass, 1 fail, 77 skip ($MLAB_BIN missing, no torch or h5py).
"""
import os
import re
import subprocess
import sys
import tempfile

try:
    import torch
    import h5py  # noqa: F401  (the snippet imports it)
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

SRC = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(__file__), ".."))
BIN = os.environ.get("MLAB_BIN", "")
if not BIN or not os.path.exists(BIN):
    print("skipped: MLAB_BIN not set")
    sys.exit(77)


def main():
    text = open(os.path.join(SRC, "data", "README.md")).read()
    m = re.search(r"From torch:\n\n```python\n(.*?)```", text, re.S)
    if not m:
        print("FAIL: data/README.md has no python block after 'From torch:'")
        return 1
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    g = torch.Generator(device=dev).manual_seed(5)
    lens = [100, 700, 1500]
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        env = {
            "q": torch.randn(len(lens), 16, 576, dtype=torch.bfloat16, device=dev, generator=g),
            "kv": torch.randn(sum(lens), 1, 576, dtype=torch.bfloat16, device=dev, generator=g),
            "qo_indptr": torch.arange(len(lens) + 1, device=dev),
            "kv_indptr": torch.tensor([0] + list(torch.tensor(lens).cumsum(0)), device=dev),
        }
        exec(m.group(1), env)  # the README's lines, as printed
        steps = [
            [BIN, "import", "mine.h5", "-o", "mine_case.h5"],
            [BIN, "check", "--requant", "mine_case.h5"],
            [BIN, "run", "--cpu-only", "mine_case.h5"],
        ]
        for cmd in steps:
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL: {' '.join(cmd[1:])}: exit {r.returncode}\n{r.stdout}{r.stderr}")
                return 1
            if cmd[1] == "check" and not re.search(r"kv_fp8 0/\d+ bytes differ", r.stdout):
                print(f"FAIL: check --requant found differing bytes:\n{r.stdout}")
                return 1
        r = subprocess.run([BIN, "run", "--require-gpu", "--no-time", "--quiet", "mine_case.h5"],
                           capture_output=True, text=True)
        if r.returncode not in (0, 77):
            print(f"FAIL: run on the GPU: exit {r.returncode}\n{r.stdout}{r.stderr}")
            return 1
        print(f"ok: the README snippet (torch {torch.__version__}, {dev}) -> import -> check --requant "
              f"-> run --cpu-only; GPU run {'skipped (none)' if r.returncode == 77 else 'passed'}")
    return 0


sys.exit(main())
