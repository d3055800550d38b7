#!/usr/bin/env python3
"""test_peer_hostile: submissions that misbehave in ways a review found
mlabench did not handle, on the CPU (MLAB_PEER_DEVICE=cpu; needs torch, exit
77 without). Each fixture is written here, under a scratch folder whose path
marks every process it starts.
  - a submission that starts a child process at import: nothing of it is
    left once the run ends (the child outlived mlabench)
  - one that forks a copy at import and aborts in custom_kernel: reported as
    died (signal 6) at once, not as silent until the time limit, and the copy
    is gone
  - one that changes its inputs in place: its row is peer_error naming the
    input (it was timed on zeros, valid)
  - an exception whose __str__ raises: peer_error naming its type (it
    named the ValueError its __str__ raised; outside a submission's call
    the server ended, status 1, no cause given)
  - a source file in latin-1 with its coding line runs (it failed as UTF-8)
  - MLAB_PEER_TIMEOUT bounds a submission's import too (300 s before)
  - two peers of one row name (torch twice; two files of one stem) are
    refused, exit 2 (rows nobody could tell apart)
  - an '@' in a folder of the path is not a format
  - mlabench stopped by SIGTERM during a call leaves no peer process, and
    writes the rows it measured before (the CPU half's), exit 143; the peer
    it took down is neither a row nor a failure
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlabtest  # noqa: E402
from mlabtest import check  # noqa: E402
import peertest as pt  # noqa: E402

pt.need_torch("test_peer_hostile")
tmp = mlabtest.scratch("peer_hostile")
case = pt.gen(os.path.join(tmp, "c.h5"), "--batch", "2", "--kv-len", "64")
CPU = {"MLAB_PEER_DEVICE": "cpu", "TMPDIR": tmp}
fast = ["--min-samples", "2", "--max-samples", "3", "--max-time", "0.2", "--quiet"]
REF = os.path.join(pt.FIX, "sub_torch_a8w8.py")
DELEGATE = (f"import importlib.util as _u\n_s = _u.spec_from_file_location('ref', {REF!r})\n"
            "_r = _u.module_from_spec(_s); _s.loader.exec_module(_r)\n")


def fixture(name, text, encoding="utf-8", folder=tmp):
    p = os.path.join(folder, name)
    os.makedirs(folder, exist_ok=True)
    with open(p, "w", encoding=encoding) as f:
        f.write(text)
    return p


def left_over():
    """pids of processes whose command line names the scratch folder (not ours)"""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            cmd = open(f"/proc/{d}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if tmp in cmd:
            pids.append(int(d))
    return pids


def settle():
    """the processes killed a moment ago: reaped by init"""
    for _ in range(20):
        if not left_over():
            return []
        time.sleep(0.1)
    return left_over()


res = os.path.join(tmp, "r.h5")

# a child started at import
leak = fixture("child_leak.py", "import subprocess\n"
               f"subprocess.Popen(['sh', '-c', 'sleep 600; : {tmp}'])\n" + DELEGATE +
               "custom_kernel = _r.custom_kernel\n")
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + leak], CPU)
gone = settle()
check(r.returncode == 0 and not gone, f"a submission's child process ends with the run: exit {r.returncode}, left {gone}")
for p in gone:
    os.kill(p, signal.SIGKILL)

# a forked copy holds the pipe open; custom_kernel aborts
fork = fixture("fork_crash.py", "import os, time\nif os.fork() == 0:\n    time.sleep(600)\n    os._exit(0)\n"
               "def custom_kernel(data):\n    os.abort()\n")
t0 = time.time()
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + fork], dict(CPU, MLAB_PEER_TIMEOUT="60"))
took = time.time() - t0
gone = settle()
check(r.returncode == 5 and "died (signal 6)" in r.stdout and took < 40 and not gone,
      f"a crash beside a forked copy: died (signal 6) at once ({took:.0f} s), nothing left ({gone}):\n{r.stdout[-400:]}")
for p in gone:
    os.kill(p, signal.SIGKILL)

# inputs changed in place
mut = fixture("mutate.py", DELEGATE + "def custom_kernel(data):\n    o = _r.custom_kernel(data)\n"
              "    data[0].zero_()\n    return o\n")
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + mut], CPU)
rows = pt.rows(res, "peer") if os.path.exists(res) else []
check(r.returncode == 5 and rows and rows[0]["stop_reason"] == "peer_error" and rows[0]["nsamples"] == 0
      and "changed its input data[0]" in r.stdout,
      f"a submission that changes its inputs: peer_error naming data[0], no samples:\n{r.stdout[-400:]}")

# an exception whose own __str__ raises
unp = fixture("unprintable.py", "class Odd(Exception):\n    def __str__(self):\n        raise ValueError('no')\n"
              "def custom_kernel(data):\n    raise Odd()\n")
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + unp], CPU)
rows = pt.rows(res, "peer") if os.path.exists(res) else []
check(r.returncode == 5 and rows and rows[0]["stop_reason"] == "peer_error"
      and "Odd: (its message could not be read)" in r.stdout,
      f"an exception that cannot be printed: peer_error naming its type:\n{r.stdout[-400:]}")

# a latin-1 source with its coding line
lat = fixture("latin1.py", "# -*- coding: latin-1 -*-\n# café\n" + DELEGATE + "custom_kernel = _r.custom_kernel\n",
              encoding="latin-1")
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + lat], CPU)
rows = pt.rows(res, "peer") if os.path.exists(res) else []
check(r.returncode == 0 and rows and rows[0]["valid"] == 1, f"a latin-1 submission runs:\n{r.stdout[-300:]}")

# the import under MLAB_PEER_TIMEOUT
slow = fixture("slow_import.py", "import time\ntime.sleep(600)\ndef custom_kernel(data):\n    pass\n")
t0 = time.time()
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + slow], dict(CPU, MLAB_PEER_TIMEOUT="3"))
took = time.time() - t0
check(r.returncode == 5 and "no reply within 3 s" in r.stdout and took < 30,
      f"MLAB_PEER_TIMEOUT=3 bounds the import: {took:.0f} s:\n{r.stdout[-300:]}")
settle()

# two peers of one row name
other = fixture("sub_torch_a8w8.py", DELEGATE + "custom_kernel = _r.custom_kernel\n", folder=os.path.join(tmp, "d2"))
for peers, what in (("torch,torch_bf16", "torch twice"), (f"submission:{REF},submission:{other}@bf16", "two files of one stem")):
    r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", peers], CPU)
    check(r.returncode == 2 and "each once" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
          f"{what}: exit 2, one line: {r.returncode} {r.stderr!r}")

# an '@' in a folder
at = fixture("x.py", DELEGATE + "custom_kernel = _r.custom_kernel\n", folder=os.path.join(tmp, "a@b"))
r = pt.run_mlabench(["run", case, *fast, "-o", res, "--peers", "submission:" + at], CPU)
check(r.returncode == 0, f"an '@' in the path's folder: exit {r.returncode} {r.stderr[-200:]}")

# SIGTERM to mlabench while a peer hangs in its call. The hanging fixture is
# this test's own copy, in its scratch folder, so that the processes looked
# for (and killed) are its own: a scan for tests/peers/bad_hang.py also found
# test_peer_run's mlabench, run beside it by `ctest -j`, and killed it (-9)
hang = fixture("hang_in_call.py", "import time\ndef custom_kernel(data):\n    while True:\n        time.sleep(1)\n")
env = dict(os.environ, MLAB_PEER_PYTHON=sys.executable, **CPU)
if os.path.exists(res):
    os.remove(res)
p = subprocess.Popen([pt.BIN, "run", case, *fast, "-o", res, "--peers", "submission:" + hang],
                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
time.sleep(8)  # past torch's import: the peer is in custom_kernel
p.send_signal(signal.SIGTERM)
_, errs = p.communicate(timeout=60)
hung = settle()
cpu_rows = len(pt.rows(res)) if os.path.exists(res) else 0
peer_rows = pt.rows(res, "peer") if os.path.exists(res) else []
check(p.returncode == 143 and not hung and cpu_rows > 0 and not peer_rows and "stopped by SIGTERM in case 1 of 1" in errs
      and "failed validation" not in errs,
      f"mlabench stopped by SIGTERM during a peer's call: the peer's processes killed ({hung}), the rows "
      f"measured before it written ({cpu_rows}), the peer taken down neither a row nor a failure ({peer_rows}), "
      f"exit 143 ({p.returncode}, {errs[-300:]!r})")
for q in hung:
    os.kill(q, signal.SIGKILL)

sys.exit(mlabtest.finish("test_peer_hostile", tmp))
