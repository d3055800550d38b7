#!/usr/bin/env python3
"""test_run_stop.py: `mlabench run` stopped by a signal keeps what it measured.

A run cut off by `timeout`, a batch system's limit or Ctrl-C wrote nothing
before (the fiftieth session's first device call lost a whole benchmark so).
Pins, on the CPU half (no GPU needed):
  - SIGTERM after the first of three cases (the test hook
    MLAB_RUN_TEST_STOP_AFTER=1 raises it, through the real handler): exit
    143, one line on stderr naming the signal, where it stopped and the
    file; the results file is whole, holds the first case's rows and input
    only, and its environment's `stopped` says "SIGTERM after 1 of 3 cases";
  - a real SIGINT from outside while the second case's references run (a
    case large enough to take seconds on the CPU): exit 130, the first
    case's rows kept, `stopped` naming SIGINT and case 2 of 4, and
    `stopped_case` that case;
  - a run that ends has `stopped` "" (absent from report's environment);
  - `report` says the run was stopped early; `compare` of the whole run
    against the stopped one says NEW's run was stopped early, its JSON
    carries `stopped_new`; `merge` of the stopped slice with another keeps
    the note; the help of `run` names exits 130 / 143 / 129;
  - `run --resume PART.h5` continues it: the finished case's rows kept as
    they were (not run again), the other cases run, the file whole; a run
    stopped in a case runs that case again whole (-o naming PART.h5
    itself), or keeps its rows as they were, said, where this run does
    not include it; the case is the file's `stopped_case` (a merged file's
    stopped slice need not be its last; two stopped slices merged name
    both, and both run again), or the note's for a file written before
    that field; a `stopped_case` naming no case of the file (or an empty
    line) is exit 3, one line, for --resume and every other reader (report,
    compare, merge: the results reader checks it; a legacy note's name,
    --resume itself); `merge` of more stopped
    cases than the field holds is exit 2, one line; another build's file is
    refused, exit 10, naming the field; a kept case whose tensors differ
    from the ones this run reads (its /inputs hashes) is refused, exit 10,
    one line, nothing written; the kept cases in another order, the one it
    stopped in among them, each kept once; a kept case named twice, exit 2.
With --gpu CASE.h5 (label gpu; exit 77 without a GPU): SIGTERM once the
first GPU variant's row is printed: exit 143, the file holds that row and
the CPU references, fewer GPU rows than the build's variants, every GPU
row whole (samples, a median), `stopped` "SIGTERM in case 1 of 1 (...)"
naming its `stopped_case`.
Usage: test_run_stop.py [--gpu CASE.h5]   (MLAB_BIN = mlabench)
Exit 0 pass, 1 fail, 77 skip (no h5py; --gpu: no GPU).
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from mlabtest import check, finish, programs, scratch

try:
    import h5py
except ImportError as e:  # pragma: no cover
    print(f"SKIP: {e}")
    sys.exit(77)

_, BIN = programs()


def run(args, env_extra=None, timeout=600):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=timeout)


def signal_when(argv, log, ready, sig, limit_s):
    """Start mlabench (output to log), send sig once ready(output so far) holds,
    wait for it: (exit code, output, whether the signal was sent)"""
    with open(log, "w") as lf:
        p = subprocess.Popen([BIN, *argv], stdout=lf, stderr=subprocess.STDOUT)
        t0, sent = time.time(), False
        while time.time() - t0 < limit_s and p.poll() is None:
            if ready(open(log).read()):
                p.send_signal(sig)
                sent = True
                break
            time.sleep(0.02)
        try:
            p.wait(timeout=600)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return p.returncode, open(log).read(), sent


def stopped_of(path, attr="stopped"):
    with h5py.File(path, "r") as f:
        v = f.attrs.get(attr, "")
    return v.decode() if isinstance(v, bytes) else str(v)


def cases_of(path):
    with h5py.File(path, "r") as f:
        names = {r.decode() if isinstance(r, bytes) else str(r) for r in f["rows"]["case_name"]}
        return names, len(f["inputs"])


def gpu(case):
    """SIGTERM in the GPU half: the variants timed so far kept, whole"""
    tmp = scratch("run_stop_gpu")
    res, log = os.path.join(tmp, "g.h5"), os.path.join(tmp, "g.log")
    def first_row(text):  # the first GPU variant's row printed
        return "GPU variants" in text and any(l.startswith("  ") and " ok " in l
                                              for l in text.split("GPU variants", 1)[1].splitlines()[2:])
    rc, out, sent = signal_when(["run", "--require-gpu", "--max-time", "0.3", case, "-o", res], log, first_row,
                                signal.SIGTERM, 600)
    if rc == 77:
        print("SKIP: no GPU")
        shutil.rmtree(tmp, ignore_errors=True)
        return 77
    rows = []
    if os.path.exists(res):
        with h5py.File(res, "r") as f:
            r = f["rows"][()]
            rows = [(x["variant"].decode(), x["kind"].decode(), int(x["nsamples"]), float(x["median_us"]))
                    for x in r]
    g = [x for x in rows if x[1] == "gpu"]
    helptext = run(["run", "--help"]).stdout
    nbuild = sum(1 for l in helptext.split("variants:\n", 1)[1].splitlines() if l.startswith("  ") and "[" in l)
    st = stopped_of(res) if os.path.exists(res) else None
    check(sent and rc == 143 and 1 <= len(g) < nbuild and all(n > 0 and m > 0 for _, _, n, m in g)
          and st is not None and st.startswith("SIGTERM in case 1 of 1")
          and stopped_of(res, "stopped_case") in st,
          f"SIGTERM in the GPU half: exit 143, {len(g)} whole GPU rows of {nbuild} variants kept, stopped {st!r} "
          f"(sent {sent}, exit {rc}, {out[-500:]!r})")
    return finish("test_run_stop --gpu", tmp)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--gpu":
        return gpu(sys.argv[2])
    tmp = scratch("run_stop")
    three = ["--cpu-only", "--quiet", "--batch", "1,2,3", "--kv-len", "64"]

    # the hook: SIGTERM raised after case 1 of 3, handled as a real one
    part = os.path.join(tmp, "part.h5")
    r = run(["run", *three, "-o", part], {"MLAB_RUN_TEST_STOP_AFTER": "1"})
    err = r.stderr.strip().splitlines()
    check(r.returncode == 143 and len(err) == 1 and "stopped by SIGTERM after 1 of 3 cases" in err[0]
          and part in err[0],
          f"SIGTERM after case 1 of 3: exit 143 and one line naming it and the file "
          f"(exit {r.returncode}, stderr {r.stderr[-400:]!r})")
    ok = os.path.exists(part)
    names, ninputs = cases_of(part) if ok else (set(), 0)
    check(ok and len(names) == 1 and ninputs == 1 and stopped_of(part) == "SIGTERM after 1 of 3 cases",
          f"the stopped run's file holds case 1's rows and input, stopped said ({names}, {ninputs} "
          f"inputs, stopped {stopped_of(part) if ok else None!r})")
    left = [f for f in os.listdir(tmp) if ".tmp." in f]
    check(not left, f"no temporary file left beside it ({left})")

    # the whole run: stopped ""
    whole = os.path.join(tmp, "whole.h5")
    r = run(["run", *three, "-o", whole])
    check(r.returncode == 0 and stopped_of(whole) == "" and len(cases_of(whole)[0]) == 3,
          f"a run that ends: exit 0, stopped \"\", 3 cases (exit {r.returncode}, {r.stderr[-300:]})")

    # report, compare (text and JSON), merge
    rep = os.path.join(tmp, "part.md")
    r = run(["report", part, "-o", rep])
    text = open(rep).read() if os.path.exists(rep) else ""
    check(r.returncode == 0 and "stopped early** (SIGTERM after 1 of 3 cases)" in text
          and "| stopped | SIGTERM after 1 of 3 cases |" in text,
          f"report says the run was stopped early (exit {r.returncode}, {text[:300]!r})")
    rep2 = os.path.join(tmp, "whole.md")
    run(["report", whole, "-o", rep2])
    text2 = open(rep2).read() if os.path.exists(rep2) else ""
    check(text2 and "stopped early" not in text2 and "| stopped |" not in text2,
          "report of a run that ended says nothing of a stop (no 'stopped' row)")
    r = run(["compare", whole, part])
    check("NEW's run was stopped early (SIGTERM after 1 of 3 cases)" in r.stdout
          and "OLD's run was stopped" not in r.stdout,
          f"compare says NEW's run was stopped early ({r.stdout[-600:]!r})")
    r = run(["compare", "--format", "json", whole, part])
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {}
    check(j.get("stopped_new") == "SIGTERM after 1 of 3 cases" and j.get("stopped_old") == "",
          f"compare's JSON carries stopped_old / stopped_new ({r.stdout[-300:]!r})")
    other = os.path.join(tmp, "other.h5")
    run(["run", "--cpu-only", "--quiet", "--batch", "5", "--kv-len", "64", "-o", other])
    merged = os.path.join(tmp, "merged.h5")
    r = run(["merge", other, part, "-o", merged])
    check(r.returncode == 0 and os.path.exists(merged) and stopped_of(merged) == "SIGTERM after 1 of 3 cases",
          f"merge keeps a stopped slice's note (exit {r.returncode}, {r.stderr[-300:]}, "
          f"{stopped_of(merged) if os.path.exists(merged) else None!r})")

    # --resume: the stopped run continued; its finished case kept, not run again
    def rows_of(path):
        with h5py.File(path, "r") as f:
            return [(x["case_name"].decode(), x["variant"].decode(), float(x["median_us"])) for x in f["rows"][()]]
    first = sorted(cases_of(part)[0])[0]
    allf = os.path.join(tmp, "all.h5")
    r = run(["run", *three, "--resume", part, "-o", allf])
    kept_same = sorted(x for x in rows_of(allf) if x[0] == first) == sorted(rows_of(part)) if os.path.exists(allf) else False
    check(r.returncode == 0 and f"case {first}: kept from {part}" in r.stdout and len(cases_of(allf)[0]) == 3
          and cases_of(allf)[1] == 3 and kept_same and stopped_of(allf) == ""
          and len(rows_of(allf)) == len(rows_of(whole)),
          f"--resume keeps the finished case's rows as they were (not run again) and runs the other two "
          f"(exit {r.returncode}, kept the same {kept_same}, {r.stdout[-300:]!r} {r.stderr[-300:]!r})")
    def stopped_in_first(name, case=None, note_only=False):  # part.h5 as if stopped in its case
        path = os.path.join(tmp, name)
        shutil.copy(part, path)
        with h5py.File(path, "r+") as f:
            f.attrs["stopped"] = f"SIGTERM in case 1 of 3 ({first})"
            if note_only:  # a file written before stopped_case: the case only in the note
                del f.attrs["stopped_case"]
            else:
                f.attrs["stopped_case"] = case or first
        return path

    # -o naming the file resumed; a run stopped in a case: that case again, whole
    inpart = stopped_in_first("inpart.h5")
    r = run(["run", *three, "--resume", inpart, "-o", inpart])
    n_first = sum(1 for x in rows_of(inpart) if x[0] == first) if os.path.exists(inpart) else -1
    check(r.returncode == 0 and f"0 cases kept (it stopped in {first}: run again)" in r.stdout
          and "kept from" not in r.stdout and len(cases_of(inpart)[0]) == 3 and cases_of(inpart)[1] == 3
          and n_first == len(rows_of(part)) and stopped_of(inpart) == "",
          f"--resume of a run stopped in a case runs it again whole, -o may name the file resumed "
          f"(exit {r.returncode}, {n_first} rows of {first}, {r.stdout[-300:]!r} {r.stderr[-300:]!r})")
    # a run that does not include the case the file stopped in keeps its rows as they were, and says so
    inpart2 = stopped_in_first("inpart2.h5")
    out2 = os.path.join(tmp, "rest.h5")
    r = run(["run", "--cpu-only", "--quiet", "--batch", "2,3", "--kv-len", "64", "--resume", inpart2, "-o", out2])
    kept2 = sorted(x for x in rows_of(out2) if x[0] == first) == sorted(rows_of(part)) if os.path.exists(out2) else False
    check(r.returncode == 0 and kept2 and len(cases_of(out2)[0]) == 3
          and f"stopped in case {first}, which this run does not include" in r.stderr,
          f"--resume without the case the file stopped in: its rows kept as they were, said "
          f"(exit {r.returncode}, kept {kept2}, {r.stderr[-300:]!r})")
    # a file written before stopped_case: the case it stopped in read from its note
    legacy = stopped_in_first("legacy.h5", note_only=True)
    out_l = os.path.join(tmp, "legacy_out.h5")
    r = run(["run", *three, "--resume", legacy, "-o", out_l])
    check(r.returncode == 0 and f"0 cases kept (it stopped in {first}: run again)" in r.stdout
          and os.path.exists(out_l) and len(cases_of(out_l)[0]) == 3,
          f"--resume of a file without stopped_case: the case named in its note run again "
          f"(exit {r.returncode}, {r.stdout[-300:]!r} {r.stderr[-300:]!r})")
    # merged: the slice that stopped is not the last; the case it stopped in is
    # stopped_case, not the merged file's last input (other's case, finished)
    mstop = os.path.join(tmp, "mstop.h5")
    r = run(["merge", stopped_in_first("inpart3.h5"), other, "-o", mstop])
    other_case = sorted(cases_of(other)[0])[0]
    out_m = os.path.join(tmp, "mstop_out.h5")
    r2 = run(["run", "--cpu-only", "--quiet", "--batch", "1,2,3,5", "--kv-len", "64", "--resume", mstop, "-o", out_m])
    check(r.returncode == 0 and stopped_of(mstop, "stopped_case") == first and r2.returncode == 0
          and f"1 case kept (it stopped in {first}: run again)" in r2.stdout
          and f"case {other_case}: kept from" in r2.stdout and os.path.exists(out_m)
          and len(cases_of(out_m)[0]) == 4,
          f"merge keeps the stopped slice's case; --resume of the merged file runs that case again, "
          f"not the file's last input (exit {r.returncode}/{r2.returncode}, {r2.stdout[-400:]!r} {r2.stderr[-300:]!r})")
    # two slices that each stopped in a case, merged: stopped_case names both, --resume runs both again
    other_stop = os.path.join(tmp, "other_stop.h5")
    shutil.copy(other, other_stop)
    with h5py.File(other_stop, "r+") as f:
        f.attrs["stopped"] = f"SIGTERM in case 1 of 1 ({other_case})"
        f.attrs["stopped_case"] = other_case
    mtwo = os.path.join(tmp, "mtwo.h5")
    r = run(["merge", stopped_in_first("inpart4.h5"), other_stop, "-o", mtwo])
    out_t = os.path.join(tmp, "mtwo_out.h5")
    r2 = run(["run", "--cpu-only", "--quiet", "--batch", "1,2,3,5", "--kv-len", "64", "--resume", mtwo, "-o", out_t])
    check(r.returncode == 0 and stopped_of(mtwo, "stopped_case") == f"{first}\n{other_case}" and r2.returncode == 0
          and f"0 cases kept (it stopped in {first}, {other_case}: run again)" in r2.stdout
          and "kept from" not in r2.stdout and os.path.exists(out_t) and len(cases_of(out_t)[0]) == 4,
          f"merge of two slices stopped in a case keeps both cases; --resume runs both again "
          f"(exit {r.returncode}/{r2.returncode}, {r2.stdout[-400:]!r} {r2.stderr[-300:]!r})")
    r = run(["compare", whole, mtwo])
    check(f"stopped_case: (empty) -> {first}, {other_case}\n" in r.stdout,
          f"compare's text gives the merged file's stopped cases on one line ({r.stdout[:600]!r})")
    # more cases stopped in than the field holds: merge refuses, exit 2, one line, nothing written
    big1, big2 = os.path.join(tmp, "big1.h5"), os.path.join(tmp, "big2.h5")
    for path, src, tag in ((big1, part, "a"), (big2, other, "b")):
        shutil.copy(src, path)
        names = [f"{tag}{i:02d}_" + "x" * 56 for i in range(9)]
        with h5py.File(path, "r+") as f:  # nine inputs of those names (stopped_case must name inputs)
            ins = f["inputs"][()]
            more = ins[:1].repeat(len(names))
            for i, nm in enumerate(names):
                more[i]["case_name"] = nm.encode()
            del f["inputs"]
            f.create_dataset("inputs", data=more)
            f.attrs["stopped"] = "SIGTERM in case 1 of 9 (x)"
            f.attrs["stopped_case"] = "\n".join(names)
    mbig = os.path.join(tmp, "mbig.h5")
    r = run(["merge", big1, big2, "-o", mbig])
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "resume the stopped files first" in r.stderr
          and not os.path.exists(mbig),
          f"merge of files whose stopped cases overflow the field: exit 2, one line, nothing written "
          f"(exit {r.returncode}, {r.stderr[-300:]!r})")
    # a stopped_case naming no case of the file: exit 3, one line, nothing written
    bad = stopped_in_first("badcase.h5", case="no_such_case")
    out_b = os.path.join(tmp, "bad_out.h5")
    r = run(["run", *three, "--resume", bad, "-o", out_b])
    check(r.returncode == 3 and len(r.stderr.strip().splitlines()) == 1 and "stopped_case" in r.stderr
          and bad in r.stderr and not os.path.exists(out_b),
          f"--resume of a file whose stopped_case names no case: exit 3, one line naming the file and "
          f"attribute, nothing written (exit {r.returncode}, {r.stderr[-300:]!r})")
    # a file written before stopped_case whose note names no case of it: --resume's own check
    badnote = stopped_in_first("badnote.h5", note_only=True)
    with h5py.File(badnote, "r+") as f:
        f.attrs["stopped"] = "SIGTERM in case 1 of 3 (no_such_case)"
    out_bn = os.path.join(tmp, "badnote_out.h5")
    r = run(["run", *three, "--resume", badnote, "-o", out_bn])
    check(r.returncode == 3 and len(r.stderr.strip().splitlines()) == 1
          and 'attribute stopped names case "no_such_case"' in r.stderr and not os.path.exists(out_bn),
          f"--resume of a file whose note names no case of it: exit 3, one line naming the attribute "
          f"(exit {r.returncode}, {r.stderr[-300:]!r})")
    # every reader refuses it the same way (the check is the results reader's):
    # report, compare and merge, exit 3, one line naming the file and the attribute;
    # an empty line in the field (an edited file) as well
    empty = stopped_in_first("emptyline.h5", case=f"{first}\n")
    for args, what in ((["report", bad], "report"), (["compare", whole, bad], "compare"),
                       (["merge", bad, other, "-o", os.path.join(tmp, "bad_m.h5")], "merge"),
                       (["report", empty], "report of an empty line")):
        r = run(args)
        check(r.returncode == 3 and len(r.stderr.strip().splitlines()) == 1
              and "attribute stopped_case: names case" in r.stderr and args[-1 if what != "merge" else 1] in r.stderr
              and not os.path.exists(os.path.join(tmp, "bad_m.h5")),
              f"{what} of a file whose stopped_case names no case of it: exit 3, one line naming the file "
              f"and attribute (exit {r.returncode}, {r.stderr[-300:]!r})")
    def resume_refused(name, edit, words, what):  # part.h5 edited by edit(f): --resume exits 10, one line, no file
        path, out = os.path.join(tmp, name + ".h5"), os.path.join(tmp, name + "_out.h5")
        shutil.copy(part, path)
        with h5py.File(path, "r+") as f:
            edit(f)
        r = run(["run", *three, "--resume", path, "-o", out])
        check(r.returncode == 10 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1
              and not os.path.exists(out),
              f"--resume {what}: exit 10, one line ('{words}'), nothing written (exit {r.returncode}, {r.stderr[-300:]!r})")

    # another build's file is refused, naming the field
    resume_refused("otherbuild", lambda f: f.attrs.__setitem__("git_commit", "0000000"), "git_commit differs",
                   "of another build's file")

    # a kept case whose tensors differ from this run's (its /inputs hashes, consistent with each other)
    def other_tensors(f):
        ins = f["inputs"][()]
        ins["q_sha256"][0] = hashlib.sha256(b"other q").hexdigest().encode()
        fields = ("q_sha256", "kv_bf16_sha256", "kv_fp8_sha256", "kv_fp4_sha256", "kv_e8m0_sha256",
                  "qo_indptr_sha256", "kv_indptr_sha256")
        ins["sha256"][0] = hashlib.sha256(b"".join(ins[k][0] + b"\n" for k in fields)).hexdigest().encode()
        f["inputs"][...] = ins
    resume_refused("othertensors", other_tensors, "has other tensors than in",
                   "where a kept case's tensors differ from this run's")

    # the kept cases in another order than the file's, the one it stopped in among them: each kept
    # case once (the inputs after the dropped one move down; their marks once did not, and a later
    # kept case was refused as named twice); a kept case named twice (its file and the same case
    # generated): exit 2, as in a plain run
    four = os.path.join(tmp, "four.h5")
    run(["run", "--cpu-only", "--quiet", "--batch", "1,2,3,4", "--kv-len", "64", "-o", four])
    with h5py.File(four, "r+") as f:
        f.attrs["stopped"] = "SIGTERM in case 2 of 4 (b2_kv64_s1)"
        f.attrs["stopped_case"] = "b2_kv64_s1"
    out4 = os.path.join(tmp, "four_out.h5")
    r = run(["run", "--cpu-only", "--quiet", "--batch", "3,2,4,1", "--kv-len", "64", "--resume", four, "-o", out4])
    check(r.returncode == 0 and all(f"case b{k}_kv64_s1: kept from" in r.stdout for k in (3, 4, 1))
          and "case b2_kv64_s1: kept from" not in r.stdout and os.path.exists(out4) and len(cases_of(out4)[0]) == 4,
          f"--resume with the kept cases in another order, the stopped one among them: each kept once, "
          f"the stopped one run (exit {r.returncode}, {r.stdout[-400:]!r} {r.stderr[-300:]!r})")
    case1 = os.path.join(tmp, "b1.h5")
    run(["gen", "--batch", "1", "--kv-len", "64", "--quiet", "-o", case1])
    out_tw = os.path.join(tmp, "twice_out.h5")
    r = run(["run", "--cpu-only", "--quiet", case1, "--batch", "1", "--kv-len", "64", "--resume", four, "-o", out_tw])
    check(r.returncode == 2 and "is already in this run" in r.stderr and not os.path.exists(out_tw),
          f"--resume with a kept case named twice: exit 2, nothing written (exit {r.returncode}, {r.stderr[-300:]!r})")
    # the case the file stopped in named twice: run again once, then refused as twice (it was once dropped
    # a second time, its new rows with it)
    case2 = os.path.join(tmp, "b2.h5")
    run(["gen", "--batch", "2", "--kv-len", "64", "--quiet", "-o", case2])
    out_ct = os.path.join(tmp, "cut_twice_out.h5")
    r = run(["run", "--cpu-only", "--quiet", case2, "--batch", "2", "--kv-len", "64", "--resume", four, "-o", out_ct])
    check(r.returncode == 2 and "case b2_kv64_s1 is already in this run" in r.stderr and not os.path.exists(out_ct),
          f"--resume with the stopped case named twice: exit 2, nothing written (exit {r.returncode}, "
          f"{r.stderr[-300:]!r})")

    # a real SIGINT from outside, during case 2's CPU references (seconds)
    sig = os.path.join(tmp, "sig.h5")
    big = ["--cpu-only", "--batch", "1,64", "--kv-len", "64,8192", "-o", sig]
    log = os.path.join(tmp, "sig.log")
    # once case 2's progress line is out (1 x 64 takes well under a second)
    rc, errs, _ = signal_when(["run", *big], log, lambda t: "case 2/" in t, signal.SIGINT, 120)
    st = stopped_of(sig) if os.path.exists(sig) else None
    sc = stopped_of(sig, "stopped_case") if os.path.exists(sig) else None
    check(rc == 130 and st is not None and st.startswith("SIGINT in case 2 of 4")
          and sc and f"({sc})" in st and len(cases_of(sig)[0]) >= 1 and "stopped by SIGINT" in errs,
          f"SIGINT from outside during the run: exit 130, the rows measured kept, stopped {st!r} "
          f"(exit {rc}, output {errs[-400:]!r})")

    r = run(["run", "--help"])
    check("130 / 143 / 129 stopped" in r.stdout, "run --help names the stop's exit codes")
    return finish("test_run_stop", tmp)


if __name__ == "__main__":
    sys.exit(main())
