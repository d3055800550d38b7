"""The small scripts' promises, with stand-ins for the programs they drive
(a review of the tooling found each broken; every check fails on the old
script):

- harness/quickstart.sh fails when its report (or plot) fails: it ended
  "(exit 0)" with no out/report.md;
- harness/apt_need.sh installs a package dpkg knows only by the config files
  of its removal (`dpkg -s` called that installed);
- harness/gpu_session.sh with a relative OUT keeps every log there (the steps
  after `cd build-gpu` wrote to a folder that did not exist, and it exited 0);
- harness/report_lib.sh (a report's rerun.sh) takes a relative MLAB_BIN from
  the caller's folder, not the repository root.

Usage: test_scripts.py [REPO]   (default $MLAB_SRC or the parent)."""
import os
import shutil
import stat
import subprocess
import sys
import time

from mlabtest import finish, say, scratch

ROOT = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "MLAB_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))


def script(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def sh(argv, cwd=None, env=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.run(argv, cwd=cwd, env=e, capture_output=True, text=True, timeout=120)


def quickstart(tmp):
    for report_rc in (0, 4):
        t = os.path.join(tmp, f"qs{report_rc}")
        os.makedirs(os.path.join(t, "harness"))
        shutil.copy(os.path.join(ROOT, "harness", "quickstart.sh"), os.path.join(t, "harness"))
        script(os.path.join(t, "harness", "setup.sh"), "exit 0\n")
        script(os.path.join(t, "build", "mlabench"),
               'case "$1" in run) : > out/results.h5 ;; report) exit %d ;; esac\nexit 0\n' % report_rc)
        r = sh(["bash", os.path.join(t, "harness", "quickstart.sh")])
        say(r.returncode == report_rc, f"quickstart.sh exits {report_rc} when its report exits {report_rc}",
            f"exit {r.returncode}: {r.stdout}{r.stderr}")


def apt_need(tmp):
    bins = os.path.join(tmp, "aptbin")
    log = os.path.join(tmp, "apt.log")
    # dpkg-query: "gone" removed (its config files left), "here" installed, others unknown
    script(os.path.join(bins, "dpkg-query"),
           'for a; do p=$a; done\ncase $p in gone) printf config-files ;; here) printf installed ;; '
           '*) echo "dpkg-query: no packages found matching $p" >&2; exit 1 ;; esac\n')
    script(os.path.join(bins, "dpkg"), 'for a; do p=$a; done\n[ "$p" = gone ] || [ "$p" = here ]\n')
    script(os.path.join(bins, "apt-get"), 'echo "$*" >> "%s"\n' % log)
    script(os.path.join(bins, "sudo"), 'exec "$@"\n')
    r = sh(["bash", "-c", '. "$1"; mlab_apt_need test here gone new', "sh",
            os.path.join(ROOT, "harness", "apt_need.sh")], env={"PATH": bins + os.pathsep + os.environ["PATH"]})
    calls = open(log).read() if os.path.exists(log) else ""
    inst = [c for c in calls.splitlines() if " install " in f" {c} "]
    say(r.returncode == 0 and len(inst) == 1 and " gone" in inst[0] and " new" in inst[0] and " here" not in inst[0],
        "apt_need.sh installs a removed package (config files only) and a new one, not an installed one",
        f"exit {r.returncode}, apt-get calls {calls!r}, {r.stderr}")


def gpu_session(tmp):
    t = os.path.join(tmp, "gs")
    for d in ("harness/peers", "data"):
        os.makedirs(os.path.join(t, d))
    for f in ("gpu_session.sh", "ctest_lib.sh"):
        shutil.copy(os.path.join(ROOT, "harness", f), os.path.join(t, "harness"))
    shutil.copy(os.path.join(ROOT, "harness", "peers", "use_pack.sh"), os.path.join(t, "harness", "peers"))
    script(os.path.join(t, "data", "record_competition.py"), "")  # python3 runs it: nothing recorded
    bins = os.path.join(tmp, "gsbin")
    # cmake's build step makes the program; the program and ctest print a line each
    script(os.path.join(bins, "cmake"), 'case "$1" in --build) mkdir -p build-gpu && cat > build-gpu/mlabench <<"EOF"\n'
                                         '#!/bin/sh\necho "mlabench $1"\nexit 0\nEOF\n'
                                         'chmod +x build-gpu/mlabench ;; esac\nexit 0\n')
    script(os.path.join(bins, "ctest"), 'echo "100% tests passed"\n')
    script(os.path.join(bins, "nvidia-smi"), 'echo "GPU 0: stand-in"\n')
    r = sh(["bash", "harness/gpu_session.sh", "cuda"], cwd=t,
           env={"PATH": bins + os.pathsep + os.environ["PATH"], "OUT": "out"})
    logs = ("build.log", "ctest.log", "validate.log", "bench.log")
    have = sorted(os.listdir(os.path.join(t, "out"))) if os.path.isdir(os.path.join(t, "out")) else []
    say(all(x in have for x in logs) and "No such file" not in r.stderr,
        "gpu_session.sh with OUT=out (relative) keeps every step's log there",
        f"exit {r.returncode}, out/: {have}, {r.stderr[-800:]}")
    # a deadline: the benchmark first, then the tests stopped there (a ctest
    # that would run 60 s, one test done), named stopped, the awkward cases'
    # validation (its cases are the tests') not run
    script(os.path.join(bins, "ctest"), 'case " $* " in *" -N "*) printf "  Test  #1: a\\n  Test  #2: b\\n"; exit 0;; esac\n'
                                        'echo "1/2 Test  #1: a ....   Passed    0.01 sec"; exec sleep 60\n')
    # and a benchmark that would run 60 s: SIGTERM 30 s before the deadline,
    # on which (as run does) it says where it stopped and exits 143
    script(os.path.join(bins, "cmake"), 'case "$1" in --build) mkdir -p build-gpu && cat > build-gpu/mlabench <<"EOF"\n'
                                         '#!/bin/bash\ncase "$1 $* " in run*" --no-time "*|[!r]*) exit 0;; esac\n'
                                         'trap \'echo "mlabench run: stopped by SIGTERM after 1 of 8 cases: the results file '
                                         'holds the rows measured before it: x.h5 (exit 143)"; kill $p; exit 143\' TERM\n'
                                         'sleep 60 & p=$!; wait $p\nEOF\n'
                                         'chmod +x build-gpu/mlabench ;; esac\nexit 0\n')
    t0 = time.time()
    r = sh(["bash", "harness/gpu_session.sh", "cuda"], cwd=t,
           env={"PATH": bins + os.pathsep + os.environ["PATH"], "OUT": "out2", "MLAB_DEADLINE": "36"})
    took = time.time() - t0
    out = r.stdout
    said = "ctest rc=124 (stopped at MLAB_DEADLINE=36 s after 1 of 2 tests)"
    bench = "bench rc=143 (stopped at MLAB_DEADLINE: stopped by SIGTERM after 1 of 8 cases, the rows measured kept)"
    say(said in out and bench in out and "validate: not run" in out and out.find("== benchmark") < out.find("== ctest")
        and os.path.exists(os.path.join(t, "out2", "bench.log")) and took < 40,
        "gpu_session.sh benchmarks before the tests; MLAB_DEADLINE stops the benchmark (its rows kept) and the "
        "tests, each said so, validation not run",
        f"exit {r.returncode} after {took:.1f} s, stdout {out[-900:]!r}")
    # MLAB_RESUME=1: the benchmark continues the file the last one left in
    # build-gpu (results-last.h5, copied there after each benchmark)
    script(os.path.join(bins, "cmake"), 'case "$1" in --build) mkdir -p build-gpu && cat > build-gpu/mlabench <<"EOF"\n'
                                         '#!/bin/bash\ncase "$1 $* " in run*" --no-time "*|[!r]*) exit 0;; esac\n'
                                         'echo "$*" >> args.log\n'
                                         'while [ $# -gt 1 ]; do [ "$1" = -o ] && echo part > "$2"; shift; done\nexit 0\nEOF\n'
                                         'chmod +x build-gpu/mlabench ;; esac\nexit 0\n')
    script(os.path.join(bins, "ctest"), 'exit 0\n')
    env = {"PATH": bins + os.pathsep + os.environ["PATH"], "OUT": "out3"}
    sh(["bash", "harness/gpu_session.sh", "cuda"], cwd=t, env=env)
    kept = os.path.exists(os.path.join(t, "build-gpu", "results-last.h5"))
    sh(["bash", "harness/gpu_session.sh", "cuda"], cwd=t, env=dict(env, MLAB_RESUME="1"))
    args = open(os.path.join(t, "build-gpu", "args.log")).read().splitlines() \
        if os.path.exists(os.path.join(t, "build-gpu", "args.log")) else []
    say(kept and len(args) == 2 and "--resume" not in args[0] and "--resume results-last.h5" in args[1],
        "gpu_session.sh keeps the benchmark's file in build-gpu; MLAB_RESUME=1 continues it (run --resume)",
        f"results-last.h5 kept {kept}, run's arguments {args}")


def report_lib(tmp):
    t = os.path.join(tmp, "rl")
    log = os.path.join(t, "calls.log")
    script(os.path.join(t, "bin", "mlabench"), 'echo "$*" >> "%s"\n'
                                               'while [ $# -gt 1 ]; do [ "$1" = -o ] && : > "$2"; shift; done\nexit 0\n' % log)
    rerun = os.path.join(ROOT, "papers", "reports", "h200-2026-12-05b", "rerun.sh")
    r = sh(["bash", rerun, "--out", os.path.join(t, "o")], cwd=t, env={"MLAB_BIN": "bin/mlabench"})
    calls = open(log).read() if os.path.exists(log) else ""
    say("plot" in calls and "No such file" not in r.stderr,
        "a report's rerun.sh runs a relative MLAB_BIN from the caller's folder",
        f"exit {r.returncode}, calls {calls!r}, {r.stderr[-400:]}")


def main():
    tmp = scratch("scripts")
    quickstart(tmp)
    apt_need(tmp)
    gpu_session(tmp)
    report_lib(tmp)
    return finish("test_scripts", tmp)


if __name__ == "__main__":
    sys.exit(main())
