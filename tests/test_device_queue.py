"""papers/device-queue.sh: the prepared device calls stay runnable while no
GPU is there to run them. Its header's calls and its case labels and usage
line name the same calls; bad usage exits 2 with one line (no call, an
unknown one, `suite` without MLAB_COMMIT, `pick` without two calls) and
writes nothing but $OUT; `pick` chooses its call by the GPU's name; and
every kernel knob it (or .ci/run's knob builds) passes as -DWG_...=VALUE is one
the kernels define (#ifndef NAME in variants/, or added by a patch the
queue applies): a misspelt knob compiles
silently to the default build, and its A/B would measure nothing; and
every flag set its A/Bs build is one CI compiles and checks (knob_build);
and every patch a call applies (papers/wip/) applies to the tree; and
gpu_ctest writes ctest's log to $OUT/ctest.log (a stand-in ctest).
A queue with no A/B (no kernel experiment waiting) passes these.

Usage: test_device_queue.py SCRIPT"""
import glob
import os
import re
import subprocess
import sys
import time

from mlabtest import check, finish, run, say, scratch

SCRIPT = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(SCRIPT)))
text = open(SCRIPT).read()
tmp = scratch("device_queue")

# the calls: the header's "#   name   (~N min)" lines, the case labels, the usage line
header = re.findall(r"^#   ([a-z][a-z0-9]*) +\(~\d+ min\)", text, re.M)
labels = set()
for m in re.finditer(r"^([a-z0-9 |]+)\)$", text, re.M):
    labels |= {w.strip() for w in m.group(1).split("|")}
usage = re.search(r"usage: papers/device-queue\.sh ([a-z0-9|]+)", text)
say(len(header) >= 1 and "suite" in header, f"the header documents the calls, suite among them ({header})")
say(set(header) == labels, f"the header's calls are the script's case labels ({sorted(header)} / {sorted(labels)})")
say(usage is not None and set(usage.group(1).split("|")) == set(header),
    f"the usage line names every call ({usage.group(1) if usage else None})")

# bad usage: exit 2, one line, nothing run
env = dict(os.environ, OUT=os.path.join(tmp, "out"))
env.pop("MLAB_COMMIT", None)
for args, want in (([], "usage"), (["nope"], "usage"), (["suite"], "MLAB_COMMIT"), (["pick"], "pick"),
                   (["pick", "mtprule"], "pick"), (["pick", "mtprule", "nope"], "pick"), (["pick", "nope", "none"], "pick"),
                   (["pick", "pick", "none"], "pick"), (["pick", "suite", "none", "x"], "pick"),
                   (["pick", "suite", "oos,"], "pick"), (["pick", ",oos", "none"], "pick"),
                   (["pick", "suite", "oos,nope"], "pick"), (["pick", "suite", "oos,,mtprule"], "pick")):
    r = run(["bash", SCRIPT] + args, timeout=60, env=env)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    say(r.returncode == 2 and len(lines) == 1 and want in lines[0] and not r.stdout.strip(),
        f"device-queue.sh {' '.join(args) or '(no call)'}: exit 2, one line naming {want} (exit {r.returncode})",
        r.stdout + r.stderr)
# mtprule with a carried program (MLAB_QUEUE_BIN) that is not there: exit 2, one line, before anything runs
r = run(["bash", SCRIPT, "mtprule"], timeout=60,
        env=dict(env, MLAB_COMMIT="0", MLAB_QUEUE_BIN=os.path.join(tmp, "no-such-mlabench")))
lines = [x for x in r.stderr.splitlines() if x.strip()]
say(r.returncode == 2 and len(lines) == 1 and "MLAB_QUEUE_BIN" in lines[0] and not r.stdout.strip(),
    f"device-queue.sh mtprule with MLAB_QUEUE_BIN not a program: exit 2, one line (exit {r.returncode})",
    r.stdout + r.stderr)
# gputests needs a carried program: none, or one that is not there: exit 2, one line, nothing configured
for qb in (None, os.path.join(tmp, "no-such-mlabench")):
    e = dict(env, MLAB_COMMIT="0")
    e.pop("MLAB_QUEUE_BIN", None)
    if qb:
        e["MLAB_QUEUE_BIN"] = qb
    r = run(["bash", SCRIPT, "gputests"], timeout=60, env=e)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    say(r.returncode == 2 and len(lines) == 1 and "MLAB_QUEUE_BIN" in lines[0] and not r.stdout.strip(),
        f"device-queue.sh gputests with MLAB_QUEUE_BIN {'not a program' if qb else 'unset'}: exit 2, one line "
        f"(exit {r.returncode})", r.stdout + r.stderr)
left = sorted(os.listdir(os.path.join(tmp, "out"))) if os.path.isdir(os.path.join(tmp, "out")) else []
say(left == [], f"bad usage wrote nothing under $OUT ({left})")
# pick H200CALL OTHER, under a stand-in nvidia-smi: on an H100 OTHER (none: nothing run, exit 0), on an
# H200 H200CALL; the calls chosen here stop at their own usage check (no MLAB_COMMIT), so nothing builds
for gpu in ("H100 80GB HBM3", "H200"):
    os.makedirs(os.path.join(tmp, gpu[:4]), exist_ok=True)
    with open(os.path.join(tmp, gpu[:4], "nvidia-smi"), "w") as fh:
        fh.write(f"#!/bin/sh\necho 'NVIDIA {gpu}'\n")
    os.chmod(os.path.join(tmp, gpu[:4], "nvidia-smi"), 0o755)
for gpu, args, rc, out, err in (("H100", ["mtprule", "none"], 0, "H100 80GB HBM3: none", None),
                                ("H100", ["mtprule", "oos"], 2, "H100 80GB HBM3: oos", "oos: MLAB_COMMIT"),
                                ("H200", ["mtprule", "none"], 2, "NVIDIA H200: mtprule", "mtprule: MLAB_COMMIT"),
                                # several calls: each runs, the first's failure does not stop the next
                                ("H100", ["mtprule", "oos,mtpsmall"], 2, "H100 80GB HBM3: oos,mtpsmall",
                                 ["oos: MLAB_COMMIT", "mtpsmall: MLAB_COMMIT"])):
    r = run(["bash", SCRIPT, "pick"] + args, timeout=60,
            env=dict(env, PATH=os.path.join(tmp, gpu) + os.pathsep + env.get("PATH", "")))
    errs = [err] if isinstance(err, str) else err or []
    say(r.returncode == rc and out in r.stdout and all(e in r.stderr for e in errs),
        f"pick {' '.join(args)} on an {gpu}: {out.split(': ')[-1]} chosen (exit {r.returncode}, {r.stdout.strip()!r})",
        r.stderr)

# every -DNAME=VALUE of the script and of .ci/run's knob builds is a knob of the kernels
defined = set()
for f in glob.glob(os.path.join(ROOT, "variants", "**", "*.h"), recursive=True) + \
        glob.glob(os.path.join(ROOT, "variants", "*.hip")):
    defined |= set(re.findall(r"^#ifndef (\w+)", open(f).read(), re.M))
# a knob a queued patch adds (papers/wip/, its "+#ifndef NAME" lines) is the
# kernels' too where the call applies that patch
for pf in set(re.findall(r"papers/wip/[\w.-]+\.patch", text)):
    if os.path.exists(os.path.join(ROOT, pf)):
        defined |= set(re.findall(r"^\+#ifndef (\w+)", open(os.path.join(ROOT, pf)).read(), re.M))
ci = open(os.path.join(ROOT, ".ci", "run")).read()
knob_lines = [x for x in ci.splitlines() if x.lstrip().startswith("knob_build ")]
flags = set(re.findall(r"-D(WG_\w+)=", text)) | set(re.findall(r"-D(WG_\w+)=", "\n".join(knob_lines)))
print(f"      the knobs passed: {sorted(flags) or 'none'}")  # none: no experiment queued
unknown = sorted(flags - defined)
say(not unknown, f"every knob passed is defined by the kernels (#ifndef in variants/): not {unknown}")
# every build an A/B of the queue makes is one CI compiles and checks (knob_build): a
# flag set that did not compile on the GPU machine would cost the whole call
queue_sets = {" ".join(x.split()) for x in re.findall(r'\b(?:new|alt)="(-D[^"]*)"', text)}
ci_sets = {" ".join(x.split()) for x in re.findall(r'knob_build [\w-]+ "([^"]*)"', "\n".join(knob_lines))}
print(f"      the queue's A/B builds: {sorted(queue_sets) or 'none'}")
missing = sorted(queue_sets - ci_sets)
say(not missing, f"every A/B build of the queue is one of CI's knob builds: not {missing}")
# every patch a call applies (an experiment kept off main until measured,
# papers/wip/) still applies to this tree: one that no longer did would cost
# the whole call on the GPU machine
patches = sorted(set(re.findall(r"papers/wip/[\w.-]+\.patch", text)))
print(f"      the queue's patches: {patches or 'none'}")
for pf in patches:
    full = os.path.join(ROOT, pf)
    r = run(["git", "apply", "--check", full], timeout=60, cwd=ROOT) if os.path.exists(full) else None
    say(r is not None and r.returncode == 0, f"{pf} is there and applies to the tree (git apply --check)",
        (r.stdout + r.stderr) if r is not None else "missing")
check(os.access(SCRIPT, os.X_OK), f"{SCRIPT} is executable")

# at most 8 files come back from a call: out_bundle (run at every exit) leaves 7 and rest.tar past 8
fn = re.search(r"^out_bundle\(\) \{.*?^\}$", text, re.M | re.S)
say(fn is not None and re.search(r"^trap out_bundle EXIT$", text, re.M) is not None,
    "out_bundle defined and run at every exit")
if fn:
    for n, want in ((11, 8), (8, 8), (3, 3)):
        d = os.path.join(tmp, f"bundle{n}")
        os.makedirs(d)
        for i in range(n):
            with open(os.path.join(d, f"f{i:02d}.h5"), "w") as fh:
                fh.write(str(i))
        r = run(["bash", "-c", fn.group(0) + "\nout_bundle"], timeout=60, env=dict(os.environ, OUT=d))
        got = sorted(os.listdir(d))
        ok = r.returncode == 0 and len(got) == want
        if n > 8:
            names = subprocess.run(["tar", "tf", os.path.join(d, "rest.tar")], capture_output=True,
                                   text=True).stdout.split()
            ok = ok and "rest.tar" in got and sorted(names + got[:-1]) == [f"f{i:02d}.h5" for i in range(n)]
        say(ok, f"out_bundle of {n} files leaves {want} ({got})")
    # two calls in one $OUT (v75: `mtpsplit; gputests`): the second adds to the first's rest.tar
    d = os.path.join(tmp, "bundle_twice")
    os.makedirs(d)
    made = []
    for batch, count in (("a", 10), ("c", 5)):  # 10: the first call bundles too
        for i in range(count):
            made.append(f"{batch}{i}.h5")
            with open(os.path.join(d, made[-1]), "w") as fh:
                fh.write(batch)
        run(["bash", "-c", fn.group(0) + "\nout_bundle"], timeout=60, env=dict(os.environ, OUT=d))
    got = sorted(os.listdir(d))
    names = subprocess.run(["tar", "tf", os.path.join(d, "rest.tar")], capture_output=True, text=True).stdout.split()
    say(len(got) == 8 and sorted(names + [g for g in got if g != "rest.tar"]) == sorted(made),
        f"out_bundle run twice in one $OUT keeps every file ({got}, rest.tar: {names})")

# gpu_ctest (tests, gputests, mtprule): ctest in build-gpu (harness/ctest_lib.sh) with the
# caller's options, its whole log in $OUT/ctest.log and its summary on stdout (a stand-in
# ctest; an edit once commented the redirect away, and the log came back empty); past its
# seconds it is stopped by SIGINT and says after how many tests
fn = re.search(r"^gpu_ctest\(\) \{.*?^\}$", text, re.M | re.S)
say(fn is not None, "gpu_ctest defined")
if fn:
    d = os.path.join(tmp, "ctest")
    os.makedirs(os.path.join(d, "build-gpu"))
    os.makedirs(os.path.join(d, "bin"))
    os.makedirs(os.path.join(d, "out"))  # the script makes $OUT first
    stub = os.path.join(d, "bin", "ctest")
    env = dict(os.environ, OUT=os.path.join(d, "out"), PATH=os.path.join(d, "bin") + os.pathsep + os.environ["PATH"])
    call = f"root={ROOT}\n" + fn.group(0) + "\ngpu_ctest %d -L gpu"
    with open(stub, "w") as fh:
        fh.write('#!/bin/sh\necho "ran in $(basename "$PWD"): $*"\necho "100% tests passed, 0 tests failed out of 3"\n')
    os.chmod(stub, 0o755)
    r = run(["bash", "-c", call % 30], timeout=60, cwd=d, env=env)
    log = os.path.join(d, "out", "ctest.log")
    got = open(log).read() if os.path.exists(log) else ""
    say(r.returncode == 0 and "ran in build-gpu:" in got and "-j8" in got and "-L gpu" in got
        and "tests passed" in got and "ctest rc=0" in r.stdout and "tests passed" in r.stdout,
        "gpu_ctest runs ctest in build-gpu with -j8 and the options, its log in $OUT/ctest.log",
        f"log: {got!r}\nstdout: {r.stdout}{r.stderr}")
    # one test done, then a test that would run 60 s: stopped 2 s in, "1 of 2"
    with open(stub, "w") as fh:
        fh.write('#!/bin/sh\ncase " $* " in *" -N "*) printf "  Test  #1: a\\n  Test  #2: b\\n"; exit 0;; esac\n'
                 'echo "1/2 Test  #1: a ....   Passed    0.01 sec"; exec sleep 60\n')
    t0 = time.time()
    r = run(["bash", "-c", call % 2], timeout=60, cwd=d, env=env)
    say("ctest rc=124 (stopped after 1 of 2 tests)" in r.stdout and time.time() - t0 < 20,
        "gpu_ctest past its seconds: stopped (SIGINT), said after how many tests",
        f"after {time.time() - t0:.1f} s, stdout: {r.stdout}{r.stderr}")

# the MTP grid check both of its callers share (tests/gpu.cmake's gpu_mtp_grid_*, mtprule's
# carried path): an item's unit (grid = rows x splits / 2) with MTP on, a row's with it off;
# a wrong grid, a wrong unit, no GPU row or a bad mode fail
grid = os.path.join(ROOT, "tests", "mtp_grid.py")
hdr = "kind,variant,grid,total_q,splits,unit\n"
cpu = "cpu,cpu_ref_bf16,0,6,1,\n"
for mode, rows, want in (("on", "gpu,bf16_wgmma,6,6,2,item\ngpu,fp8_wgmma,3,6,1,item\n", 0),
                         ("off", "gpu,bf16_wgmma,12,6,2,row\n", 0),
                         ("on", "gpu,bf16_wgmma,12,6,2,item\n", 1),
                         ("on", "gpu,bf16_wgmma,6,6,2,row\n", 1),
                         ("off", "gpu,bf16_wgmma,12,6,2,row\ngpu,fp8_wgmma,3,6,1,item\n", 1),
                         ("off", "", 1), ("both", "gpu,bf16_wgmma,12,6,2,row\n", 2)):
    r = subprocess.run([sys.executable, grid, mode], input=hdr + cpu + rows, capture_output=True, text=True,
                       timeout=60)
    say(r.returncode == want, f"mtp_grid.py {mode} on {rows.count(chr(10))} GPU rows: exit {want} (exit {r.returncode})",
        r.stdout + r.stderr)
gpu_cmake = open(os.path.join(ROOT, "tests", "gpu.cmake")).read()
say("import mtp_grid" in gpu_cmake and "tests/mtp_grid.py" in text,
    "gpu_mtp_grid_* and mtprule's carried path both check the grid with tests/mtp_grid.py")
sys.exit(finish("test_device_queue", tmp))
