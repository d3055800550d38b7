"""harness/gpu_ab.sh: its prepare step (a commit's tree into .ab/COMMIT of a
throwaway git repository; an unknown commit refused with exit 2), its run
step driven through stand-ins for the two mlabench programs that record
their command lines (the order new, base, base, new with their labels; the
default and the given run options passed to every run; both pairs compared
into compare.txt, with both pairs as one table (harness/tools/ab_table.py
through the stand-in's export), and the two builds' kernels compared by their SASS
(harness/nv_sass.sh through a stand-in cuobjdump: the kernel that differs
named); the logs packed into ab_logs.tar.gz, six files in $OUT;
MLAB_AB_CASES_GLOB picking the cases; a third build, alt: new, base, alt,
alt, base, new, eight files; an alt of the working tree with new's flags is
new's program run with the alt's environment, not built again), and its errors (a commit not
prepared: exit 2, but "worktree" needs no preparing; a failing run or build:
exit 4 naming its log; a run past MLAB_AB_RUN_TIMEOUT, killed: exit 4, its
logs packed; a bad limit: exit 2; a glob that matches no case: exit 4; usage), and the
build's cmake arguments (MLAB_AB_*_CMAKE split on spaces, MLAB_AB_*_CUDA_FLAGS
one argument).

Usage: test_gpu_ab.py SCRIPT"""
import os
import shutil
import stat
import subprocess
import sys

from mlabtest import check, finish, scratch

SCRIPT = sys.argv[1]

STAND_IN = """#!/bin/sh
# stand-in mlabench: records its command line, writes the -o file
echo "$(basename "$(dirname "$0")") $* ${AB_X:+AB_X=$AB_X}" >> "$AB_LOG"
case "$1" in
  run)
    [ -n "$AB_FAIL" ] && [ "$(basename "$(dirname "$0")")" = "$AB_FAIL" ] && exit 5
    # a run that never ends (a kernel that never finishes), deaf to SIGTERM as such a run's wait is
    [ -n "$AB_HANG" ] && [ "$(basename "$(dirname "$0")")" = "$AB_HANG" ] && { trap '' TERM; while :; do sleep 1; done; }
    while [ $# -gt 1 ]; do [ "$1" = -o ] && : > "$2"; shift; done ;;
  compare) echo "geomean 10 9.9 -1.00%"; echo "summary: 8 pairs: 8 same"; exit 0 ;;
  export) echo "run_index,batch,kv_len,variant,kind,median_us"
    # by the file's own name: the scratch folder's random name may hold "new" or "alt"
    case "$(basename "$2")" in *new*) echo "0,4,1024,fp8,gpu,9" ;; *alt*) echo "0,4,1024,fp8,gpu,8" ;; *) echo "0,4,1024,fp8,gpu,10" ;; esac ;;
esac
exit 0
"""


CUOBJDUMP = """#!/bin/sh
# stand-in cuobjdump: two kernels an object; the new build's k2 differs
case "$1" in
  -res-usage) printf ' Function k1:\\n  REG:10 STACK:0 SHARED:0 LOCAL:0\\n Function k2:\\n  REG:12 STACK:0 SHARED:0 LOCAL:0\\n' ;;
  -sass)
    printf '\\t\\tFunction : k1\\n        /*0000*/                   MOV R1, c[0x0][0x28] ;\\n'
    printf '\\t\\tFunction : k2\\n'
    case "$2" in
      */new/*) printf '        /*0000*/                   IADD3 R1, R1, 0x2, RZ ;\\n' ;;
      *) printf '        /*0000*/                   IADD3 R1, R1, 0x1, RZ ;\\n' ;;
    esac ;;
esac
"""


def gpu_object(d, name):
    """an (empty) object where nv_sass.sh looks in the stand-in program's folder"""
    o = os.path.join(d, name, "CMakeFiles", "mlab_gpu.dir")
    os.makedirs(o)
    open(os.path.join(o, "x.cu.o"), "w").close()


def stand_in(d, name):
    os.makedirs(os.path.join(d, name))
    p = os.path.join(d, name, "mlabench")
    with open(p, "w") as f:
        f.write(STAND_IN)
    os.chmod(p, os.stat(p).st_mode | stat.S_IEXEC)
    return p


def run(script, args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run(["bash", script, *args], capture_output=True, text=True, env=e, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def main():
    tmp = scratch("gpu_ab")
    # prepare, in a throwaway repository holding a copy of the script
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, "harness"))
    os.makedirs(os.path.join(repo, "papers", "reports", "x"))
    shutil.copy(SCRIPT, os.path.join(repo, "harness", "gpu_ab.sh"))
    shutil.copy(os.path.join(os.path.dirname(SCRIPT), "tree_lib.sh"), os.path.join(repo, "harness"))  # it sources
    for rel, text in (("CMakeLists.txt", "# v1\n"), ("papers/reports/x/big.h5", "results\n")):
        with open(os.path.join(repo, rel), "w") as f:
            f.write(text)
    g = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(g[:3] + ["init", "-q"], check=True)
    subprocess.run(g + ["add", "-A"], check=True)
    subprocess.run(g + ["commit", "-qm", "one"], check=True)
    head = subprocess.run(g[:3] + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(repo, "CMakeLists.txt"), "w") as f:
        f.write("# v2, not committed\n")
    own = os.path.join(repo, "harness", "gpu_ab.sh")
    rc, out, err = run(own, ["prepare", head])
    check(rc == 0, f"prepare {head}: exit {rc} {err}")
    base = os.path.join(repo, ".ab", head)
    with open(os.path.join(base, "CMakeLists.txt")) as f:
        check(f.read() == "# v1\n", "prepare writes the commit's tree, not the working tree's")
    check(open(os.path.join(base, ".ab_commit")).read().strip() == head, ".ab_commit names the commit")
    check(not os.path.exists(os.path.join(base, "papers", "reports")), "results files are left out")
    rc, out, err = run(own, ["prepare", "nosuchcommit"])
    check(rc == 2 and "nosuchcommit" in err and len(err.strip().splitlines()) == 1,
          f"an unknown commit: exit {rc}, {err!r}")
    rc, out, err = run(own, ["prepare", "a;b"])
    check(rc == 2 and "letters, digits" in err, f"a commit name with odd characters: exit {rc}, {err!r}")
    rc, out, err = run(own, [])
    check(rc == 2 and "usage" in err, f"no arguments: exit {rc}, {err!r}")

    # run, with stand-ins
    bins = os.path.join(tmp, "bins")
    new, old = stand_in(bins, "new"), stand_in(bins, "base")
    cases = os.path.join(tmp, "cases")
    os.makedirs(cases)
    for c in ("b4_kv1024.h5", "b32_kv8192.h5"):
        open(os.path.join(cases, c), "w").close()
    log, out_dir = os.path.join(tmp, "calls.log"), os.path.join(tmp, "out")
    work = os.path.join(tmp, "work")
    os.makedirs(work)
    open(os.path.join(work, "build_base.log"), "w").close()  # an earlier run's: not packed
    # the builds' SASS, through a stand-in cuobjdump over an object in each
    # program's folder: the new build's kernel k2 differs, k1 and alt's not
    for name in ("new", "base"):
        gpu_object(bins, name)
    fake_objdump = os.path.join(tmp, "cuobjdump")
    with open(fake_objdump, "w") as f:
        f.write(CUOBJDUMP)
    os.chmod(fake_objdump, 0o755)
    env = {"MLAB_AB_NEW_BIN": new, "MLAB_AB_BASE_BIN": old, "MLAB_AB_CASES": cases, "AB_LOG": log,
           "OUT": out_dir, "AB_FAIL": "", "AB_HANG": "", "MLAB_AB_WORK": work, "MLAB_CUOBJDUMP": fake_objdump}
    rc, out, err = run(SCRIPT, ["run", "abc1234"], env)
    check(rc == 0, f"run with stand-ins: exit {rc} {err}")
    calls = open(log).read().splitlines()
    runs = [c for c in calls if c.split()[1] == "run"]
    check([(c.split()[0], c.split()[c.split().index("--label") + 1]) for c in runs] ==
          [("new", "new"), ("base", "base"), ("base", "base"), ("new", "new")],
          f"the order new, base, base, new with their labels: {runs}")
    check(all("--max-time 0.15" in c and c.count(".h5") == 3 for c in runs),
          "the default options and both cases (and the -o file) in every run")
    for lab, k in (("new", 1), ("base", 1), ("base", 2), ("new", 2)):
        check(os.path.exists(os.path.join(out_dir, f"ab_{lab}_{k}.h5")), f"ab_{lab}_{k}.h5 written")
    comp = [c for c in calls if c.split()[1] == "compare"]
    check(len(comp) == 2 and all("ab_base_" in c and "ab_new_" in c for c in comp), f"both pairs compared: {comp}")
    text = open(os.path.join(out_dir, "compare.txt")).read()
    check(text.count("== pair") == 2 and "geomean" in out, "compare.txt holds both pairs, the geomeans printed")
    check("| 4 x 1024 | 10.0 -> 9.00, 10.0 -> 9.00 (-10.0 / -10.0%) |" in text and "| geomean | 10.0 -> 9.00" in out,
          f"compare.txt: both pairs as one table (ab_table.py), its geomean printed: {text!r}")
    check(text.count("== kernels") == 1 and "differs:" in text and " k2 " in text.split("differs:")[1].splitlines()[0]
          and "nv_sass: 1 kernels the same, 1 differences" in text and "(nv_sass exit 1" in text
          and "nv_sass: 1 kernels the same" in out,
          f"compare.txt: the kernels compared by their SASS, k2 named: {text[text.find('== kernels'):]!r}")
    check(sorted(os.listdir(out_dir)) == ["ab_base_1.h5", "ab_base_2.h5", "ab_logs.tar.gz", "ab_new_1.h5",
                                          "ab_new_2.h5", "compare.txt"],
          f"six files in $OUT: {sorted(os.listdir(out_dir))}")
    names = subprocess.run(["tar", "-tzf", os.path.join(out_dir, "ab_logs.tar.gz")], capture_output=True,
                           text=True).stdout.split()
    check(sorted(names) == ["run_base_1.log", "run_base_2.log", "run_new_1.log", "run_new_2.log"],
          f"the runs' logs packed, not an earlier run's: {names}")

    # a third build (alt): new, base, alt, alt, base, new; base against both; eight files
    alt = stand_in(bins, "alt")
    gpu_object(bins, "alt")
    os.remove(log)
    shutil.rmtree(out_dir)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_ALT_BIN=alt))
    calls = open(log).read().splitlines()
    runs = [c for c in calls if c.split()[1] == "run"]
    check(rc == 0 and [(c.split()[0], c.split()[c.split().index("--label") + 1]) for c in runs] ==
          [("new", "new"), ("base", "base"), ("alt", "alt"), ("alt", "alt"), ("base", "base"), ("new", "new")],
          f"with alt: the order new, base, alt, alt, base, new: exit {rc} {runs} {err}")
    comp = [c for c in calls if c.split()[1] == "compare"]
    check(len(comp) == 4 and sum("ab_alt_" in c for c in comp) == 2 and all("ab_base_" in c for c in comp),
          f"with alt: each pair's base against new and against alt: {comp}")
    check(sorted(os.listdir(out_dir)) == ["ab_alt_1.h5", "ab_alt_2.h5", "ab_base_1.h5", "ab_base_2.h5",
                                          "ab_logs.tar.gz", "ab_new_1.h5", "ab_new_2.h5", "compare.txt"],
          f"with alt: eight files in $OUT: {sorted(os.listdir(out_dir))}")
    text = open(os.path.join(out_dir, "compare.txt")).read()
    check(text.count("== pair") == 4, "compare.txt: four sections")
    check(text.count("== both pairs") == 4 and "base -> alt, base -> alt" in text
          and "| 4 x 1024 | 10.0 -> 8.00, 10.0 -> 8.00 (-20.0 / -20.0%) |" in text
          and "| 4 x 1024 | 10.0 -> 9.00, 10.0 -> 9.00 (-10.0 / -10.0%) |" in text,
          f"with alt: its own table against the base beside new's (us and per read limit): {text!r}")
    shutil.rmtree(out_dir)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_SASS="off"))
    check(rc == 0 and "== kernels" not in open(os.path.join(out_dir, "compare.txt")).read(),
          f"MLAB_AB_SASS=off: no SASS comparison: exit {rc}")
    check(text.count("== kernels") == 2 and "nv_sass: 2 kernels the same, 0 differences" in text,
          f"with alt: its kernels compared too (the same as base's): {text[text.find('== kernels'):]!r}")
    # an alt of the working tree built as new (the same cmake arguments and CUDA
    # flags): new's program, run with the alt's environment, never built again
    os.remove(log)
    shutil.rmtree(out_dir)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_ALT="worktree", MLAB_AB_ALT_ENV="AB_X=1"))
    runs = [c.split() for c in open(log).read().splitlines() if c.split()[1] == "run"]
    check(rc == 0 and [(c[0], c[c.index("--label") + 1], "AB_X=1" in c) for c in runs] ==
          [("new", "new", False), ("base", "base", False), ("new", "alt", True), ("new", "alt", True),
           ("base", "base", False), ("new", "new", False)] and "alt is the new build" in out
          and not os.path.exists(os.path.join(work, "build_alt.log")),  # (not build-ab-alt: an earlier A/B's may be there)
          f"alt = the new build run another way: exit {rc} {runs} {out} {err}")
    # a base of the working tree built as new (COMMIT "worktree", the same
    # arguments and flags): a run-time knob against its default, one build
    os.remove(log)
    shutil.rmtree(out_dir)
    benv = {k: v for k, v in env.items() if k != "MLAB_AB_BASE_BIN"}
    rc, out, err = run(SCRIPT, ["run", "worktree"], dict(benv, MLAB_AB_BASE_ENV="AB_X=1"))
    runs = [c.split() for c in open(log).read().splitlines() if c.split()[1] == "run"] if os.path.exists(log) else []
    check(rc == 0 and [(c[0], c[c.index("--label") + 1], "AB_X=1" in c) for c in runs] ==
          [("new", "new", False), ("new", "base", True), ("new", "base", True), ("new", "new", False)]
          and "base is the new build" in out and not os.path.exists(os.path.join(work, "build_base.log")),
          f"base = the new build run another way: exit {rc} {runs} {out} {err}")
    open(log, "a").close()  # (no runs where it failed: the next steps remove it)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_ALT="notprepared"))
    check(rc == 2 and "MLAB_AB_ALT=notprepared is not prepared" in err and len(err.strip().splitlines()) == 1,
          f"an alt commit not prepared: exit {rc}, {err!r}")
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_ALT="a;b"))
    check(rc == 2 and "letters, digits" in err, f"an alt name with odd characters: exit {rc}, {err!r}")

    os.remove(log)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_CASES_GLOB="b4_*.h5"))
    runs = [c for c in open(log).read().splitlines() if c.split()[1] == "run"]
    check(rc == 0 and len(runs) == 4 and all("b4_kv1024.h5" in c and "b32_kv8192" not in c for c in runs),
          f"MLAB_AB_CASES_GLOB picks the cases: {runs}")
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_CASES_GLOB="nomatch*.h5"))
    check(rc == 4 and "nomatch" in err and len(err.strip().splitlines()) == 1,
          f"a glob that matches no case: exit {rc}, {err!r}")

    os.remove(log)
    rc, out, err = run(SCRIPT, ["run", "abc1234", "--variants", "fp8", "--max-time", "0.05"], env)
    runs = [c for c in open(log).read().splitlines() if c.split()[1] == "run"]
    check(rc == 0 and len(runs) == 4 and all("--variants fp8 --max-time 0.05" in c for c in runs)
          and not any("0.15" in c for c in runs), f"given options replace the default in every run: {runs}")

    env["AB_FAIL"] = "base"
    rc, out, err = run(SCRIPT, ["run", "abc1234"], env)
    check(rc == 4 and "base run 1 failed" in err and "run_base_1.log" in err, f"a failing run: exit {rc}, {err!r}")
    check(os.path.exists(os.path.join(out_dir, "ab_logs.tar.gz")), "the logs packed after a failure too")
    # MLAB_AB_RUN_TIMEOUT: a run that never ends (SIGTERM ignored) is killed
    # 10 s after the limit, the call ends as a failed run, logs packed
    env["AB_FAIL"] = ""
    os.remove(os.path.join(out_dir, "ab_logs.tar.gz"))
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, AB_HANG="new", MLAB_AB_RUN_TIMEOUT="1"))
    check(rc == 4 and "new run 1 did not end within MLAB_AB_RUN_TIMEOUT=1 s" in err and "run_new_1.log" in err
          and os.path.exists(os.path.join(out_dir, "ab_logs.tar.gz")), f"a run past its limit: exit {rc}, {err!r}")
    for bad in ("0", "1.5", "x"):
        rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_RUN_TIMEOUT=bad))
        check(rc == 2 and "MLAB_AB_RUN_TIMEOUT" in err, f"MLAB_AB_RUN_TIMEOUT={bad}: exit {rc}, {err!r}")
    env["AB_FAIL"] = "base"

    env.pop("MLAB_AB_BASE_BIN")
    rc, out, err = run(SCRIPT, ["run", "notprepared"], env)
    check(rc == 2 and "not prepared" in err and "prepare notprepared" in err,
          f"a commit not prepared: exit {rc}, {err!r}")
    # "worktree": nothing to prepare; built another way than new (else it is
    # new's program, above), here the throwaway tree does not build (its
    # CMakeLists.txt has no project): exit 4 naming the base build's log
    env["AB_FAIL"] = ""
    rc, out, err = run(own, ["run", "worktree"], dict(env, MLAB_AB_BASE_CMAKE="-DX=1"))
    check(rc == 4 and "did not build" in err and "build_base.log" in err and "not prepared" not in err,
          f"worktree as the base: exit {rc}, {err!r}")
    # the build's arguments, through a stand-in cmake that records them one a
    # line (and fails): MLAB_AB_BASE_CMAKE split on spaces, the CUDA flags one
    # argument with their spaces
    fake = os.path.join(tmp, "fakebin")
    os.makedirs(fake)
    with open(os.path.join(fake, "cmake"), "w") as f:
        f.write('#!/bin/sh\nfor a in "$@"; do echo "$a"; done >> "$AB_CMAKE_LOG"\nexit 1\n')
    os.chmod(os.path.join(fake, "cmake"), 0o755)
    cm_log = os.path.join(tmp, "cmake.log")
    rc, out, err = run(own, ["run", "worktree"], dict(env, PATH=fake + os.pathsep + os.environ["PATH"], AB_CMAKE_LOG=cm_log,
                                                      MLAB_AB_BASE_CMAKE="-DX=1 -DY=2",
                                                      MLAB_AB_BASE_CUDA_FLAGS="-DWG_NSTAGE=5 -DWG_PERSIST=0"))
    args = open(cm_log).read().splitlines() if os.path.exists(cm_log) else []
    check(rc == 4 and "-DX=1" in args and "-DY=2" in args and "-DCMAKE_CUDA_FLAGS=-DWG_NSTAGE=5 -DWG_PERSIST=0" in args,
          f"cmake arguments and CUDA flags: exit {rc}, {args}")
    os.remove(cm_log)
    rc, out, err = run(own, ["run", "worktree"], dict(env, PATH=fake + os.pathsep + os.environ["PATH"], AB_CMAKE_LOG=cm_log,
                                                      MLAB_AB_BASE_CMAKE="-DX=1"))
    args = open(cm_log).read().splitlines() if os.path.exists(cm_log) else []
    check(rc == 4 and args and not any(a.startswith("-DCMAKE_CUDA_FLAGS") for a in args),
          f"no CUDA flags asked, none passed: {args}")
    # programs under a folder with a space: the four runs (a step's words once split the path)
    spaced = os.path.join(tmp, "bins with space")
    shutil.copytree(bins, spaced)
    env.update(AB_FAIL="", MLAB_AB_NEW_BIN=os.path.join(spaced, "new", "mlabench"),
               MLAB_AB_BASE_BIN=os.path.join(spaced, "base", "mlabench"), MLAB_AB_SASS="off")
    if os.path.exists(log):
        os.remove(log)
    shutil.rmtree(out_dir, ignore_errors=True)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], env)
    runs = [c for c in open(log).read().splitlines() if c.split()[1] == "run"] if os.path.exists(log) else []
    check(rc == 0 and len(runs) == 4, f"programs in a folder with a space: exit {rc}, {len(runs)} runs, {err!r}")
    # MLAB_AB_CASES naming a folder without cases: refused, never filled with generated ones
    empty = os.path.join(tmp, "no_cases")
    os.makedirs(empty)
    if os.path.exists(log):
        os.remove(log)
    rc, out, err = run(SCRIPT, ["run", "abc1234"], dict(env, MLAB_AB_CASES=empty))
    calls = open(log).read().splitlines() if os.path.exists(log) else []
    check(rc == 4 and "holds no case file" in err and not any(c.split()[1] == "gen" for c in calls)
          and not os.listdir(empty), f"MLAB_AB_CASES without cases: exit {rc}, {err!r}, calls {calls}")
    return finish("test_gpu_ab", tmp)


if __name__ == "__main__":
    sys.exit(main())
