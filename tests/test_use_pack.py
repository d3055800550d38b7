"""harness/peers/use_pack.sh: the prebuilt FlashInfer pack put on PYTHONPATH
for a GPU machine without network, driven with stand-in packs (a
flashinfer package of one __init__.py, tarred as pack_flashinfer.sh names
it): no pack -> status 1, one line saying the FlashInfer peers will be
skipped, PYTHONPATH untouched; a pack whose import fails -> status 1 naming
the error, PYTHONPATH untouched; a good pack -> status 0, its version
printed, PYTHONPATH starting with the site, and `import flashinfer` works
under it; a second call reuses the unpacked site (marker file). A FlashMLA
pack beside it (flashmla/VERSION) is exported as MLAB_FLASHMLA_DIR with a
line of its own, also where FlashInfer's is missing (status still 1).

Usage: test_use_pack.py SCRIPT"""
import os
import subprocess
import sys
import tarfile

from mlabtest import finish, say, scratch

SCRIPT = sys.argv[1]
tmp = scratch("use_pack")


def make_pack(name, init):
    d = os.path.join(tmp, name)
    src = os.path.join(d, "src", "flashinfer")
    os.makedirs(src)
    with open(os.path.join(src, "__init__.py"), "w") as f:
        f.write(init)
    with tarfile.open(os.path.join(d, "flashinfer-9.9-mla-sm90a.tar.xz"), "w:xz") as t:
        t.add(src, arcname="flashinfer")
    return d


def source(pack, site, var="PYTHONPATH"):
    """(status, stdout, var after) of sourcing the script in bash."""
    env = dict(os.environ, MLAB_PACK_SITE=site, MLAB_PEER_PYTHON=sys.executable)
    env.pop("PYTHONPATH", None)
    env.pop("MLAB_FLASHMLA_DIR", None)
    cmd = f'. "{SCRIPT}" "{pack}"; s=$?; echo "PP=${{{var}:-unset}}"; exit $s'
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env, timeout=120)
    out = p.stdout.strip().splitlines()
    return p.returncode, "\n".join(out[:-1]), out[-1][3:] if out else ""


rc, out, pp = source(os.path.join(tmp, "none"), os.path.join(tmp, "site0"))
say(rc == 1 and "no FlashInfer pack" in out and "skipped" in out and pp == "unset",
    "no pack: status 1, one line, PYTHONPATH untouched", f"rc {rc} out {out!r} PP {pp}")

bad = make_pack("bad", 'raise ImportError("needs a GPU library")\n')
rc, out, pp = source(bad, os.path.join(tmp, "site1"))
say(rc == 1 and "does not import" in out and "needs a GPU library" in out and pp == "unset",
    "a pack that does not import: status 1 naming the error, PYTHONPATH untouched", f"rc {rc} out {out!r} PP {pp}")

good = make_pack("good", '__version__ = "9.9-test"\n')
site = os.path.join(tmp, "site2")
rc, out, pp = source(good, site)
say(rc == 0 and "flashinfer 9.9-test" in out and pp.split(":")[0] == site,
    "a good pack: status 0, its version, the site first on PYTHONPATH", f"rc {rc} out {out!r} PP {pp}")
p = subprocess.run([sys.executable, "-c", "import flashinfer; print(flashinfer.__version__)"],
                   capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=pp))
say(p.stdout.strip() == "9.9-test", "flashinfer imports from that PYTHONPATH", p.stderr)
os.remove(os.path.join(site, "flashinfer", "__init__.py"))  # a second call must not unpack again
rc, out, pp = source(good, site)
say(rc == 1 and "does not import" in out, "a second call reuses the unpacked site (marker)", f"rc {rc} out {out!r}")

fm = os.path.join(tmp, "fmla-only")
os.makedirs(os.path.join(fm, "flashmla"))
with open(os.path.join(fm, "flashmla", "VERSION"), "w") as f:
    f.write("vllm 9.9 torch 9.9\n")
rc, out, d = source(fm, os.path.join(tmp, "site3"), "MLAB_FLASHMLA_DIR")
say(rc == 1 and "FlashMLA of vllm 9.9 torch 9.9" in out and "no FlashInfer pack" in out and
    d == os.path.join(os.path.realpath(fm), "flashmla"),
    "a FlashMLA pack alone: exported with a line, FlashInfer's absence still status 1", f"rc {rc} out {out!r} D {d}")
rc, out, d = source(good, site, "MLAB_FLASHMLA_DIR")
say(d == "unset" and "FlashMLA" not in out, "no FlashMLA pack: MLAB_FLASHMLA_DIR unset, no line", f"out {out!r} D {d}")

sys.exit(finish("test_use_pack", tmp))
