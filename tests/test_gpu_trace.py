"""harness/gpu_trace.sh: driven through a stand-in trace-built mlabench
(MLAB_TRACE_BIN) that prints a trace to stderr as the runner does, over a
folder of case files (MLAB_AB_CASES, names with and without a seed): each
named case run once with the default or the given options and
MLAB_TRACE_ENV's variables, its log kept as trace_CASE.log, the logs summed
up by trace_summary.py into trace_summary.txt, trace_table.md (a row a
run, each case's) and trace_merge.md (a row a split call's merge). Errors: no case named, a name with odd characters or a
bad MLAB_TRACE_ENV word (exit 2, usage); a case matching no file, a failing
run (exit 4 naming the case or its log); a program that prints no trace
(exit 4: not a trace build).

Usage: test_gpu_trace.py SCRIPT"""
import os
import subprocess
import sys

from mlabtest import check, finish, scratch

SCRIPT = sys.argv[1]

STAND_IN = """#!/bin/sh
# stand-in trace-built mlabench: records its command line and environment,
# writes the -o file, prints one variant's trace to stderr (the case's rows
# from its file name)
echo "run $* TRACE_ENV=$MLAB_AMAX" >> "$TR_LOG"
[ -n "$TR_FAIL" ] && case "$*" in *"$TR_FAIL"*) exit 5 ;; esac
[ -n "$TR_SILENT" ] && exit 0
rows=4; case "$*" in *b64_*) rows=64 ;; esac
while [ $# -gt 1 ]; do [ "$1" = -o ] && : > "$2"; shift; done
cat >&2 <<EOF
TRACE variant 7 last cold sample 11.00 us query rows $rows longest 1024 splits 16 name fp8_wgmma
TA 0 1000 2000
TD 0 5 1 1500 3000 4000 5000 6000
TD 1 6 1 1500 3000 4200 5200 6400
TC 0 5000 7000 8000
TQ 0 2000 2500
TQ 1 2000 2600
EOF
"""


def run(args, env):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, env=e)
    return r.returncode, r.stdout, r.stderr


def main():
    tmp = scratch("gpu_trace")
    bin_ = os.path.join(tmp, "mlabench")
    with open(bin_, "w") as f:
        f.write(STAND_IN)
    os.chmod(bin_, 0o755)
    cases = os.path.join(tmp, "cases")
    os.makedirs(cases)
    for c in ("b4_kv1024_s4217.h5", "b64_kv1024.h5", "b256_kv1024_s9823.h5"):
        open(os.path.join(cases, c), "w").close()
    out, log = os.path.join(tmp, "out"), os.path.join(tmp, "calls.log")
    env = {"MLAB_TRACE_BIN": bin_, "MLAB_AB_CASES": cases, "OUT": out, "TR_LOG": log, "TR_FAIL": "",
           "TR_SILENT": "", "TMPDIR": tmp}

    rc, so, se = run(["b4_kv1024", "b64_kv1024"], dict(env, MLAB_TRACE_ENV="MLAB_AMAX=inline"))
    check(rc == 0, f"two cases: exit {rc} {se}")
    calls = open(log).read().splitlines()
    check(len(calls) == 2 and "b4_kv1024_s4217.h5" in calls[0] and "b64_kv1024.h5" in calls[1],
          f"each case run once, a seed's file and a plain one: {calls}")
    check(all("--max-time 0.05" in c and "TRACE_ENV=inline" in c for c in calls),
          f"the default options and MLAB_TRACE_ENV's variables: {calls}")
    for n in ("b4_kv1024", "b64_kv1024"):
        check(os.path.isfile(os.path.join(out, f"trace_{n}.log")), f"trace_{n}.log kept")
    summary = open(os.path.join(out, "trace_summary.txt")).read() if os.path.exists(
        os.path.join(out, "trace_summary.txt")) else ""
    check(summary.count("TRACE variant 7") == 2 and "Q path        grid wait done min 1.0" in summary,
          "trace_summary.txt sums up both logs")
    check("== trace_b4_kv1024.log" in summary and os.sep + "trace_b" not in summary,
          "the summary names each log from $OUT, no folder (report folders keep it as it is)")
    table = open(os.path.join(out, "trace_table.md")).read().splitlines() if os.path.exists(
        os.path.join(out, "trace_table.md")) else []
    check(len(table) == 4 and table[0].startswith("| case (splits) | variant |")
          and table[2].startswith("| 4 x 1024 (16) | fp8_wgmma | 1.0 | 0.5 | - | 1.0 | 1.6 | 2.0 | - | 3.1 |")
          and table[3].startswith("| 64 x 1024 (16) | fp8_wgmma |"),
          f"trace_table.md: a header and a row a case: {table}")
    merge = open(os.path.join(out, "trace_merge.md")).read().splitlines() if os.path.exists(
        os.path.join(out, "trace_merge.md")) else []
    check(len(merge) == 4 and merge[0].startswith("| case (splits) | variant | last decode block end |")
          and merge[2] == "| 4 x 1024 (16) | fp8_wgmma | 5.4 | 6.0 | - | - | 7.0 | - | - |",
          f"trace_merge.md: the merge a case (no TE lines, no weights: '-'): {merge}")

    open(log, "w").close()
    rc, so, se = run(["b256_kv1024", "--", "--variants", "fp8_wgmma", "--max-time", "0.01"], env)
    calls = open(log).read().splitlines()
    check(rc == 0 and len(calls) == 1 and "--variants fp8_wgmma --max-time 0.01" in calls[0]
          and "--max-time 0.05" not in calls[0], f"the options after --: exit {rc} {calls}")

    rc, so, se = run([], env)
    check(rc == 2 and "usage" in se, f"no case: exit {rc} {se!r}")
    rc, so, se = run(["b4;x"], env)
    check(rc == 2 and "letters, digits" in se, f"a name with odd characters: exit {rc} {se!r}")
    rc, so, se = run(["b4_kv1024"], dict(env, MLAB_TRACE_ENV="oops"))
    check(rc == 2 and "NAME=VALUE" in se, f"a bad MLAB_TRACE_ENV word: exit {rc} {se!r}")
    rc, so, se = run(["b8_kv1024"], env)
    check(rc == 4 and "no case b8_kv1024" in se and len(se.strip().splitlines()) == 1,
          f"a case matching no file: exit {rc} {se!r}")
    rc, so, se = run(["b4_kv1024", "b64_kv1024"], dict(env, TR_FAIL="b64_kv1024"))
    check(rc == 4 and "b64_kv1024" in se and "trace_b64_kv1024.log" in se, f"a failing run: exit {rc} {se!r}")
    rc, so, se = run(["b4_kv1024"], dict(env, TR_SILENT="1"))
    check(rc == 4 and "MLAB_TRACE" in se, f"a program that prints no trace: exit {rc} {se!r}")
    return finish("test_gpu_trace", tmp)


if __name__ == "__main__":
    sys.exit(main())
