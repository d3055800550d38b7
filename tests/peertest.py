"""peertest.py: what the peer tests share: paths, a case maker, the results
rows, and the skip rule (77) for tests that need torch or a GPU."""
import os
import subprocess
import sys

import h5py

SRC = os.environ.get("MLAB_SRC", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("MLAB_BIN", os.path.join(SRC, "build", "mlabench"))
PEERS = os.path.join(SRC, "harness", "peers")
FIX = os.path.join(SRC, "tests", "peers")
SERVER = os.path.join(PEERS, "peer_server.py")
sys.path.insert(0, PEERS)


def need_torch(name):
    try:
        import torch  # noqa: F401
    except ImportError:
        print(f"{name}: skipped: torch is not installed for {sys.executable}")
        sys.exit(77)


def gen(path, *args):
    r = subprocess.run([BIN, "gen", *args, "-o", path], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"mlabench gen {' '.join(args)} failed: {r.stderr.strip()}")
    return path


def rows(path, kind=None):
    """The results file's rows as dicts of str/int/float, optionally one kind."""
    out = []
    with h5py.File(path, "r") as f:
        r = f["rows"][()]
        for x in r:
            d = {}
            for n in r.dtype.names:
                v = x[n]
                d[n] = v.decode() if isinstance(v, bytes) else v.item() if hasattr(v, "item") else v
            if kind is None or d["kind"] == kind:
                out.append(d)
    return out


def run_mlabench(args, env_extra=None, timeout=900):
    env = dict(os.environ)
    env["MLAB_PEER_PYTHON"] = sys.executable
    env.update(env_extra or {})
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=timeout)
