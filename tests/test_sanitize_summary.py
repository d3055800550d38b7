#!/usr/bin/env python3
"""test_sanitize_summary.py: harness/tools/sanitize_summary.py reads
compute-sanitizer logs as the H100 wrote them (perf-notes v69), and
harness/gpu_sanitize.sh refuses what it cannot run.

Pins, on logs in the tool's format: a clean log (summary 0) is "clean"; a
synccheck log of 3072 per-thread findings with 2 printed and the second
summary line of a --print-limit cut counts 3072 and folds the printed blocks
into one site (the offsets dropped, the kernel's frame kept); a racecheck log
of two warnings at one site and an error at another counts 3 and sums each
site's "[N hazards]"; a log without a summary line (a run cut off) is a
finding; any finding makes the exit 1, none 0. --known: a finding whose
log label starts with the entry's tool and whose text holds all its pieces
is marked "known" and leaves the exit 0, while another finding in the same
run still makes it 1; a malformed --known file or an unreadable log exits
2 with one line. gpu_sanitize.sh: an unknown option or tool exits 2; on a
machine without an NVIDIA GPU (or compute-sanitizer) it exits 77, skipped;
with stand-ins for compute-sanitizer, nvidia-smi and mlabench it runs each
tool three times (the cases, --splits 7, MLAB_MTP=on), heads the summary
with the checker's version, and exits 0 when all are clean or only the known finding is reported (marked, no reruns), 1 with
a finding not listed, after running that tool again a variant at a time
(each log summed up), 1 too when a run fails by itself with no finding
(exit 5), and --control exits 0 when memcheck reports the fault.
Usage: test_sanitize_summary.py PATH/TO/sanitize_summary.py PATH/TO/gpu_sanitize.sh
Exit 0 pass, 1 fail.
"""
import os
import sys

from mlabtest import finish, run, say, scratch

def sync_block(thread):
    """one thread's synccheck finding, as the H100 printed it"""
    return f"""========= Barrier error detected. Divergent thread(s) in block.
=========     at wg_bar_sync(int, int)+0x63e0 in nv_wgmma.h:92
=========     by thread ({thread},0,0) in block (26,0,0)
=========         Device Frame: void mla_decode_wg<(bool)0>(mla_params)+0x63e0 in mla_wgmma.h:1807
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cudaLaunchKernel [0xc4897] in mlabench
========= 
"""


SYNC = ("========= COMPUTE-SANITIZER\n" + sync_block(224) + sync_block(225) +
        """========= Target application returned an error
========= ERROR SUMMARY: 3072 errors
========= ERROR SUMMARY: 3070 errors were not printed. Use --print-limit option to adjust the number of printed errors
""")
RACE = """========= COMPUTE-SANITIZER
========= Warning: Race reported between Read access at void tile_softmax<(int)0>(const float *)+0x2a90 in mla_kernel.h:1295
=========     and Write access at void tile_softmax<(int)0>(const float *)+0x2db0 in mla_kernel.h:1327 [1024 hazards]
========= 
========= Warning: Race reported between Read access at void tile_softmax<(int)0>(const float *)+0x2a91 in mla_kernel.h:1295
=========     and Write access at void tile_softmax<(int)0>(const float *)+0x2db1 in mla_kernel.h:1327 [1024 hazards]
========= 
========= Error: Race reported between Write access at mlab_cp16(void *, const void *, int)+0x18050 in mlab_hip.h:452
=========     and Read access at wg_vt_frag(unsigned int (&)[4], const void *)+0x5af0 in nv_wgmma.h:195 [2928 hazards]
========= 
========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)
"""
RACE_KNOWN = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at mlab_cp16(void *, const void *, int)+0x18050 in mlab_hip.h:452
=========     and Read access at wg_vt_frag(unsigned int (&)[4], const void *)+0x5af0 in nv_wgmma.h:195 [2928 hazards]
========= 
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
CLEAN = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
CUT = "========= COMPUTE-SANITIZER\n========= Barrier error detected. Divergent thread(s) in block.\n"
KNOWN = """# a comment, then a blank line

racecheck | Race reported between Write access at mlab_cp16( & Read access at wg_vt_frag( | open, v69
"""


def main():
    tool, script = sys.argv[1], sys.argv[2]
    tmp = scratch("sanitize")
    logs = {}
    for name, text in [("memcheck-cases", CLEAN), ("synccheck-cases", SYNC), ("racecheck-cases", RACE),
                       ("initcheck-cut", CUT), ("racecheck-known", RACE_KNOWN)]:
        logs[name] = os.path.join(tmp, name + ".log")
        with open(logs[name], "w") as f:
            f.write(text)
    py = [sys.executable, tool]

    p = run(py + [logs["memcheck-cases"]])
    say(p.returncode == 0 and p.stdout.strip() == "memcheck-cases: clean", "a clean log: 'clean', exit 0",
        p.stdout + p.stderr)

    p = run(py + [logs["synccheck-cases"]])
    lines = p.stdout.splitlines()
    say(p.returncode == 1 and lines[0] == "synccheck-cases: 3072 findings at 1 sites",
        "synccheck: the first summary's 3072, one site, exit 1", p.stdout)
    say(len(lines) == 2 and lines[1].startswith("  2 printed: Barrier error detected.") and "+0x" not in lines[1]
        and "at wg_bar_sync(int, int) in nv_wgmma.h:92" in lines[1]
        and "Device Frame: void mla_decode_wg<(bool)0>(mla_params) in mla_wgmma.h:1807" in lines[1]
        and "Host Frame" not in lines[1] and "Target application" not in p.stdout,
        "synccheck: the printed blocks folded into their site (offsets dropped, kernel frame kept)", p.stdout)

    p = run(py + [logs["racecheck-cases"]])
    lines = p.stdout.splitlines()
    say(p.returncode == 1 and lines[0] == "racecheck-cases: 3 findings at 2 sites"
        and lines[1].startswith("  2 printed, 2048 hazards: Warning: Race reported between Read access at")
        and lines[2].startswith("  1 printed, 2928 hazards: Error: Race reported between Write access at mlab_cp16"),
        "racecheck: errors and warnings counted, hazards summed a site", p.stdout)

    p = run(py + [logs["initcheck-cut"]])
    say(p.returncode == 1 and p.stdout.startswith("initcheck-cut: no summary"), "a cut log is a finding",
        p.stdout)

    known = os.path.join(tmp, "known.txt")
    with open(known, "w") as f:
        f.write(KNOWN)
    p = run(py + ["--known", known, logs["racecheck-known"], logs["memcheck-cases"]])
    say(p.returncode == 0 and "    known: open, v69" in p.stdout and "memcheck-cases: clean" in p.stdout,
        "--known: the listed finding marked known, exit 0", p.stdout + p.stderr)
    p = run(py + ["--known", known, logs["racecheck-cases"]])
    say(p.returncode == 1 and p.stdout.count("known: open, v69") == 1,
        "--known: an unlisted finding beside a known one still fails", p.stdout)
    p = run(py + ["--known", known, logs["synccheck-cases"]])
    say(p.returncode == 1 and "known:" not in p.stdout, "--known: an entry matches its tool's logs only",
        p.stdout)

    bad = os.path.join(tmp, "bad.txt")
    with open(bad, "w") as f:
        f.write("racecheck | no reason\n")
    p = run(py + ["--known", bad, logs["memcheck-cases"]])
    say(p.returncode == 2 and "bad.txt:1:" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
        "a malformed --known line: exit 2, one line naming it", p.stderr)
    p = run(py + [os.path.join(tmp, "missing.log")])
    say(p.returncode == 2 and "missing.log" in p.stderr, "an unreadable log: exit 2, named", p.stderr)
    p = run(py)
    say(p.returncode == 2, "no log: usage, exit 2", p.stderr)

    env = dict(os.environ, PATH="/usr/bin:/bin")
    p = run(["bash", script, "--help"], env=env)
    say(p.returncode == 0 and "# Usage:" in p.stdout and "Exit: 0" in p.stdout and "set -u" not in p.stdout,
        "gpu_sanitize.sh --help: its whole head, exit 0", p.stdout + p.stderr)
    p = run(["bash", script, "--bogus"], env=env)
    say(p.returncode == 2 and "--bogus" in p.stderr, "gpu_sanitize.sh: an unknown option, exit 2", p.stderr)
    p = run(["bash", script, "--tools", "memcheck,helgrind"], env=env)
    say(p.returncode == 2 and "helgrind" in p.stderr, "gpu_sanitize.sh: an unknown tool, exit 2", p.stderr)
    try:
        gpu = run(["nvidia-smi", "-L"]).returncode == 0
    except OSError:
        gpu = False
    if not gpu:  # a CPU machine, with or without CUDA's compute-sanitizer
        p = run(["bash", script, "--out", os.path.join(tmp, "out")])
        say(p.returncode == 77 and "skipped" in p.stdout, "gpu_sanitize.sh: no GPU (or no compute-sanitizer), exit 77",
            p.stdout + p.stderr)
    fake_runs(script, tmp)
    return finish("test_sanitize_summary", tmp)


# stand-ins for a GPU machine: nvidia-smi that answers, a compute-sanitizer
# that writes the log its mode says (FAKE_SAN: clean, known, new) without
# running the program (MLAB_FAULT=oob: memcheck's invalid write, exit 70),
# an mlabench that makes case files and names two variants
FAKE_SAN = r"""#!/bin/bash
[ "$1" = --version ] && { echo "Version 2099.1 (stand-in)"; exit 0; }
tool=memcheck log=
while [ $# -gt 0 ]; do
  case $1 in --tool) tool=$2; shift 2 ;; --log-file) log=$2; shift 2 ;; --padding|--error-exitcode|--print-limit) shift 2 ;;
    *) break ;; esac
done
echo "$tool $*" >> "$FAKE_SAN_CALLS"
{ echo "========= COMPUTE-SANITIZER"
  if [ "${MLAB_FAULT:-}" = oob ]; then
    echo "========= Invalid __global__ write of size 4 bytes"
    echo "=========     at void combine_one<(bool)0>(const mla_params &)+0x10 in mla_kernel.h:1877"
    echo "=========         Device Frame: void mla_combine<(bool)0>(mla_params)+0x20 in mla_kernel.h:1926"
    echo "========= "
    echo "========= ERROR SUMMARY: 1 error"
  elif [ $tool = racecheck ] && [ $FAKE_SAN != clean ]; then
    echo "========= Error: Race reported between Write access at mlab_cp16(void *, const void *, int)+0x1 in mlab_hip.h:452"
    echo "=========     and Read access at wg_vt_frag(unsigned int (&)[4], const void *)+0x2 in nv_wgmma.h:195 [9 hazards]"
    echo "========= "
    echo "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
  elif [ $tool = synccheck ] && [ $FAKE_SAN = new ]; then
    echo "========= Barrier error detected. Divergent thread(s) in block."
    echo "=========     at wg_bar_sync(int, int)+0x1 in nv_wgmma.h:92"
    echo "========= "
    echo "========= ERROR SUMMARY: 1 error"
  else
    echo "========= ERROR SUMMARY: 0 errors"
  fi; } > "$log"
[ $FAKE_SAN = fails ] && [ $tool = initcheck ] && exit 5  # the run's own failure, no finding
grep -q 'ERROR SUMMARY: 0\|RACECHECK SUMMARY: 0' "$log" && exit 0
exit 70
"""
FAKE_BIN = r"""#!/bin/bash
case "$1 $2" in
  "run --help") printf 'variants:\n  fp8   [fp8] one\n  bf16  [bf16] two\nexit: ...\n' ;;
  gen*) shift; while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done ;;
esac
"""


def fake_runs(script, tmp):
    bindir = os.path.join(tmp, "fakebin")
    os.makedirs(bindir)
    for name, text in [("compute-sanitizer", FAKE_SAN), ("nvidia-smi", "#!/bin/sh\nexit 0\n"),
                       ("mlabench", FAKE_BIN)]:
        path = os.path.join(bindir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    for mode, want, what in [("clean", 0, "every tool clean: exit 0"),
                             ("known", 0, "racecheck's known finding only: exit 0, marked known"),
                             ("new", 1, "a finding not listed (synccheck): exit 1"),
                             ("fails", 1, "a run failing by itself (initcheck's, exit 5), no finding: exit 1")]:
        calls = os.path.join(tmp, f"calls_{mode}")
        env = dict(os.environ, PATH=bindir + ":/usr/bin:/bin", FAKE_SAN=mode, FAKE_SAN_CALLS=calls,
                   MLAB_BIN=os.path.join(bindir, "mlabench"))
        p = run(["bash", script, "--out", os.path.join(tmp, "out_" + mode)], env=env)
        with open(calls) as f:
            runs = f.read().splitlines()
        per_variant = [r for r in runs if "--variants fp8 " in r or "--variants bf16 " in r]
        ok = p.returncode == want and len(runs) == 12 + len(per_variant)
        ok = ok and "\n# Version 2099.1 (stand-in);" in p.stdout  # what ran, heading the summary
        if mode == "known":
            ok = ok and "known:" in p.stdout and not per_variant
        if mode == "fails":
            ok = ok and "a run failed by itself" in p.stdout and not per_variant
        if mode == "new":  # synccheck again a variant at a time, each log in the summary
            ok = ok and len(per_variant) == 2 and all(r.startswith("synccheck") for r in per_variant) and \
                "synccheck-v-fp8: 1 findings at 1 sites" in p.stdout
        say(ok, f"gpu_sanitize.sh, stand-in tools, {what}", p.stdout + p.stderr + "\n".join(runs))
    env = dict(os.environ, PATH=bindir + ":/usr/bin:/bin", FAKE_SAN="clean",
               FAKE_SAN_CALLS=os.path.join(tmp, "calls_control"), MLAB_BIN=os.path.join(bindir, "mlabench"))
    p = run(["bash", script, "--control", "--out", os.path.join(tmp, "out_control")], env=env)
    say(p.returncode == 0 and "control: caught" in p.stdout, "gpu_sanitize.sh --control: the fault reported, exit 0",
        p.stdout + p.stderr)


if __name__ == "__main__":
    sys.exit(main())
