"""harness/tools/split_sweep.py: its report from synthetic exports (the
fastest forced count, the rule's pick, how far off; a summary line), its
errors (no rule run, not an export, usage), untimed rows (median_us 0) and
rows cut short left out (never a traceback), and its run mode's commands,
driven through a stand-in for mlabench that records them.

Its fit mode against the rule itself (mlab_split_pick, PICK): synthetic
forced runs whose fastest counts only a DRAM share picks.

Usage: test_split_sweep.py TOOL PICK"""
import os
import stat
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
PICK = sys.argv[2]
HEADER = "run_index,case_name,variant,splits,median_us\n"
failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAIL:", what)


def tool(*args, env=None):
    r = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def write(path, rows):
    with open(path, "w") as f:
        f.write(HEADER)
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")


with tempfile.TemporaryDirectory() as d:
    # case A: the rule picks 16 (14.2 us), the fastest forced count is 16 too;
    # case B: the rule picks 64 (25.4), the fastest forced is 32 (22.1): +14.9%
    write(os.path.join(d, "splits_rule.csv"),
          [[0, "b4_kv1024", "fp8", 16, 14.2], [0, "b4_kv8192", "fp8", 64, 25.4], [0, "b4_kv8192", "cpu_ref_fp8", 0, 9e4]])
    write(os.path.join(d, "splits_16.csv"), [[0, "b4_kv1024", "fp8", 16, 14.1], [0, "b4_kv8192", "fp8", 16, 28.0]])
    write(os.path.join(d, "splits_32.csv"), [[0, "b4_kv1024", "fp8", 32, 14.9], [0, "b4_kv8192", "fp8", 32, 22.1]])
    rc, out, err = tool("report", d)
    check(rc == 0, f"report exits 0 (got {rc}: {err})")
    check("| b4_kv1024 | fp8 | 16 splits, 14.1 us | 16 splits, 14.2 us | +0.7% |" in out, "case A row:\n" + out)
    check("| b4_kv8192 | fp8 | 32 splits, 22.1 us | 64 splits, 25.4 us | +14.9% |" in out, "case B row:\n" + out)
    check("1 of 2 picks within 1% of the fastest forced count, worst +14.9% (fp8 on b4_kv8192)" in out,
          "summary line:\n" + out)
    check("cpu_ref" not in out, "CPU rows left out")

    # untimed rows (median_us 0) and rows cut short are left out, never a traceback: case A's forced 32
    # untimed, case B's forced 16 cut short; a case timed nowhere is no row; nothing timed: one line, exit 3
    ud = os.path.join(d, "untimed")
    os.makedirs(ud)
    write(os.path.join(ud, "splits_rule.csv"), [[0, "b4_kv1024", "fp8", 16, 14.2], [0, "b4_kv8192", "fp8", 64, 25.4],
                                                [0, "b4_kv2048", "fp8", 16, 0], [0, "b4_kv4096"]])
    write(os.path.join(ud, "splits_16.csv"), [[0, "b4_kv1024", "fp8", 16, 14.1], [0, "b4_kv8192"],
                                              [0, "b4_kv2048", "fp8", 16, 0]])
    write(os.path.join(ud, "splits_32.csv"), [[0, "b4_kv1024", "fp8", 32, 0], [0, "b4_kv8192", "fp8", 32, 22.1]])
    rc, out, err = tool("report", ud)
    check(rc == 0 and "| b4_kv1024 | fp8 | 16 splits, 14.1 us | 16 splits, 14.2 us | +0.7% |" in out
          and "| b4_kv8192 | fp8 | 32 splits, 22.1 us | 64 splits, 25.4 us | +14.9% |" in out
          and "b4_kv2048" not in out and "1 of 2 picks" in out,
          f"report leaves untimed rows and rows cut short out ({rc}, {err}):\n" + out)
    for n in ("rule", 16):
        write(os.path.join(ud, f"splits_{n}.csv"), [[0, "b4_kv1024", "fp8", 16, 0], [0, "b4_kv1024"]])
    rc, out, err = tool("report", ud)
    check(rc == 3 and err.count("\n") == 1 and "no (case, variant)" in err and "Traceback" not in err,
          f"report with nothing timed: one line, exit 3 ({rc}, {err})")

    os.remove(os.path.join(d, "splits_rule.csv"))
    rc, out, err = tool("report", d)
    check(rc == 3 and "splits_rule.csv: missing" in err, f"no rule run: exit 3 with the file named ({rc}, {err})")

    with open(os.path.join(d, "splits_rule.csv"), "w") as f:
        f.write("a,b\n1,2\n")
    rc, out, err = tool("report", d)
    check(rc == 3 and "not an mlabench export" in err, f"not an export: exit 3 ({rc}, {err})")

    rc, out, err = tool()
    check(rc == 2, f"no arguments: usage, exit 2 ({rc})")
    rc, out, err = tool("run", "--out", d)
    check(rc == 2 and "at least one case" in err, f"run without cases: exit 2 ({rc}, {err})")
    rc, out, err = tool("run", "--out", os.path.join(d, "splits_16.csv", "x"), "c1.h5")
    check(rc == 4 and err.count("\n") == 1 and "cannot create the folder" in err,
          f"an --out under a file: one line, exit 4 ({rc}, {err})")
    rc, out, err = tool("run", "--out", os.path.join(d, "o"), "--mlabench", os.path.join(d, "no_such_bin"), "c1.h5")
    check(rc == 4 and err.count("\n") == 1 and "cannot run it" in err, f"no mlabench: one line, exit 4 ({rc}, {err})")

    # run mode with a stand-in mlabench: each `run` is recorded, each `export`
    # writes a CSV in which the forced count 8 is the fastest and the rule picks 8
    fake = os.path.join(d, "fake_mlabench")
    log = os.path.join(d, "calls.log")
    with open(fake, "w") as f:
        f.write(f"""#!/bin/sh
echo "$@" >> {log}
if [ "$1" = export ]; then
  s=$(basename "$2" .h5); s=${{s#splits_}}; [ "$s" = rule ] && n=8 || n=$s
  us=$(( 20 + (n > 8 ? n - 8 : 8 - n) ))
  printf 'case_name,variant,splits,median_us\\nc1,bf16,%s,%s\\n' "$n" "$us" > "$4"
fi
exit 0
""")
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    out_dir = os.path.join(d, "sweep")
    rc, out, err = tool("run", "--out", out_dir, "--mlabench", fake, "--variants", "bf16", "c1.h5")
    check(rc == 0, f"run with the stand-in exits 0 ({rc}: {err})")
    calls = open(log).read().splitlines()
    runs = [c for c in calls if c.startswith("run ")]
    check(len(runs) == 8, f"8 runs (the rule and 1..64): {len(runs)}")
    check(any("--splits 64" in c for c in runs) and not any("--splits" in c for c in runs[:1]),
          "the first run is the rule's, the last forces 64:\n" + "\n".join(runs))
    check(all("--require-gpu" in c and "--variants bf16" in c and c.endswith("c1.h5") for c in runs),
          "every run validates on a GPU, the variants and the case passed on")
    check("1 of 1 picks within 1% of the fastest forced count" in out, "run's report:\n" + out)
    # --counts: the rule and only the counts asked for
    os.remove(log)
    rc, out, err = tool("run", "--out", os.path.join(d, "sweep2"), "--mlabench", fake, "--counts", "8,2", "c1.h5")
    runs = [c for c in open(log).read().splitlines() if c.startswith("run ")]
    check(rc == 0 and len(runs) == 3 and "--splits" not in runs[0] and "--splits 2 " in runs[1]
          and "--splits 8 " in runs[2], f"--counts 8,2: the rule, then 2 and 8 ({rc}, {err}):\n" + "\n".join(runs))
    for bad in ("3", "1,x", "128", ""):
        rc, out, err = tool("run", "--out", os.path.join(d, "sweep3"), "--mlabench", fake, "--counts", bad, "c1.h5")
        check(rc == 2 and "powers of two" in err, f"--counts {bad!r}: usage, exit 2 ({rc}, {err})")

    # fit: two shapes of one variant on 132 SMs, one block an SM. The rule
    # without a factor takes 2 splits at 64 x 1024 and at 64 x 8192; here
    # unsplit is fastest at 64 x 1024 and 2 at 64 x 8192, which the rule
    # picks with bw 50..55 (the H200's bf16_wgmma, s39) and not without; with
    # the latency terms (--free 36864 --merge 200, the fp8 decodes' form) 50..60
    fd = os.path.join(d, "fit")
    os.makedirs(fd)
    FH = "case_name,variant,splits,median_us,total_q,kv_len,blocks_per_sm,batch,total_kv,kv_format\n"
    for n, us1024, us8192 in ((1, 32.1, 165.2), (2, 34.4, 154.2), (4, 38.7, 158.2)):
        with open(os.path.join(fd, f"splits_{n}.csv"), "w") as f:
            f.write(FH + f"b64_kv1024,v,{n},{us1024},64,1024,1,64,65536,bf16\n"
                    f"b64_kv8192,v,{n},{us8192},64,8192,1,64,524288,bf16\n"
                    f"b64_kv1024,cpu_ref_bf16,0,9e4,64,1024,0,64,65536,bf16\n"
                    f"ragged,v,{n},{1.0 + n},64,8192,1,64,99999,bf16\n")  # a ragged batch: left out
    with open(os.path.join(fd, "splits_rule.csv"), "w") as f:  # not read by fit
        f.write("junk\n")
    rc, out, err = tool("fit", fd, "--sms", "132", "--pick", PICK)
    check(rc == 0, f"fit exits 0 ({rc}: {err})")
    check("| 0 | 1 of 2 (+7.2%) |" in out and "| 55 | 2 of 2 (+0.0%) |" in out, "fit's table by bw:\n" + out)
    line = [l for l in out.splitlines() if l.startswith("split_sweep fit: v:")]
    check(len(line) == 1 and "bw 50..55 % (free 0 bytes, merge 100 %, pair 0 %) picks within 1% of the fastest for 2 of 2" in line[0]
          and "without (0): 1 of 2 (worst +7.2%)" in line[0], f"fit's summary: {line}")
    # an untimed forced run (median_us 0: 8 splits) and rows cut short change nothing; untimed alone: exit 3
    fu = os.path.join(d, "fit_untimed")
    os.makedirs(fu)
    for n in (1, 2, 4):
        with open(os.path.join(fd, f"splits_{n}.csv")) as f, open(os.path.join(fu, f"splits_{n}.csv"), "w") as g:
            g.write(f.read() + "b64_kv1024\n")
    with open(os.path.join(fu, "splits_8.csv"), "w") as f:
        f.write(FH + "b64_kv1024,v,8,0,64,1024,1,64,65536,bf16\nb64_kv8192,v,8,0,64,8192,1,64,524288,bf16\n"
                "b64_kv8192,v,8\n")
    rc, out, err = tool("fit", fu, "--sms", "132", "--pick", PICK)
    line = [l for l in out.splitlines() if l.startswith("split_sweep fit: v:")]
    check(rc == 0 and len(line) == 1 and "bw 50..55 % (free 0 bytes, merge 100 %, pair 0 %) picks within 1% of the "
          "fastest for 2 of 2" in line[0], f"fit leaves untimed rows and rows cut short out ({rc}, {err}): {line}")
    for n in (1, 2, 4):
        os.remove(os.path.join(fu, f"splits_{n}.csv"))
    rc, out, err = tool("fit", fu, "--sms", "132", "--pick", PICK)
    check(rc == 3 and err.count("\n") == 1 and "no timed rows" in err,
          f"fit with nothing timed: one line, exit 3 ({rc}, {err})")
    rc, out, err = tool("fit", fd, "--sms", "132", "--free", "36864", "--merge", "200", "--pick", PICK)
    line = [l for l in out.splitlines() if l.startswith("split_sweep fit: v:")]
    check(rc == 0 and len(line) == 1 and "bw 50..60 % (free 36864 bytes, merge 200 %, pair 0 %)" in line[0],
          f"fit with the latency terms: the rule asked with them ({rc}, {err}): {line}")
    # with pairs counted (bf16_wgmma's form: 64 x 1024 unsplit runs 128 blocks of 8 heads) the share that
    # picks both is 75..80 %, the H200's bf16_wgmma's 78
    rc, out, err = tool("fit", fd, "--sms", "132", "--pair", "70", "--pick", PICK)
    line = [l for l in out.splitlines() if l.startswith("split_sweep fit: v:")]
    check(rc == 0 and len(line) == 1 and "bw 75..80 % (free 0 bytes, merge 100 %, pair 70 %)" in line[0],
          f"fit with the pairs counted: the rule asked with them ({rc}, {err}): {line}")
    rc, out, err = tool("fit", fd, "--sms", "132", "--free", "-1", "--pick", PICK)
    check(rc == 2 and "--free" in err, f"fit --free -1: usage, exit 2 ({rc}, {err})")
    rc, out, err = tool("fit", fd, "--sms", "132", "--step", "1", "--pick", PICK)
    check(rc == 0 and "| 53 |" in out and "bw 50..55 %" in out, f"fit --step 1: every bw ({rc}, {err})")
    rc, out, err = tool("fit", fd, "--sms", "132", "--step", "0", "--pick", PICK)
    check(rc == 2 and "--step" in err, f"fit --step 0: usage, exit 2 ({rc}, {err})")
    check("cpu_ref" not in out, "fit leaves CPU rows out")
    check("of 3" not in out, "fit leaves the ragged batch out (2 shapes a variant, not 3):\n" + out)
    rc, out, err = tool("fit", fd, "--pick", PICK)
    check(rc == 2 and "--sms" in err, f"fit without --sms: usage, exit 2 ({rc}, {err})")
    rc, out, err = tool("fit", fd, "--sms", "132", "--pick", os.path.join(d, "no_such_pick"))
    check(rc == 4 and err.count("\n") == 1 and "cannot run it" in err, f"fit without the rule program: exit 4 ({rc}, {err})")
    rc, out, err = tool("fit", os.path.join(d, "sweep"), "--sms", "132", "--pick", PICK)
    check(rc == 3 and "no column kv_format, kv_len, total_q" in err and err.count("\n") == 1,
          f"fit on exports without shapes: one line naming the file's missing columns, exit 3 ({rc}, {err})")

# mlab_split_pick itself: the rule's picks a line, the shares as splits.h's (fp8_wgmma's {56, 36864, 200, 0}
# and bf16_wgmma's {78, 0, 100, 70}: 64 x 1024 unsplit, 40 x 8192 2 splits; without a share 2 and 16), and a
# malformed line refused with its number (exit 2)
r = subprocess.run([PICK], input="64 16 132 1 56 36864 200 0 fp8\n64 16 132 1 0 0 100 0 fp8\n"
                   "40 128 132 1 56 36864 200 0 fp8\n40 128 132 1 0 0 100 0 fp8\n64 16 132 1 78 0 100 70 bf16\n",
                   capture_output=True, text=True)
check(r.returncode == 0 and r.stdout.split() == ["1", "2", "2", "16", "1"],
      f"mlab_split_pick: the rule's picks ({r.returncode}, {r.stdout.split()}, {r.stderr})")
for bad in ("64 16 132 1 56 36864 200 fp8", "64 16 132 1 56 36864 200 0 fp16", "64 16 132 1 101 0 100 0 fp8",
            "64 16 132 1 56 36864 200 0 fp8 x"):
    r = subprocess.run([PICK], input="4 16 132 1 0 0 100 0 bf16\n" + bad + "\n", capture_output=True, text=True)
    check(r.returncode == 2 and "line 2:" in r.stderr and r.stderr.count("\n") == 1,
          f"mlab_split_pick refuses {bad!r} on its line 2, one line, exit 2 ({r.returncode}, {r.stderr})")

print(f"test_split_sweep: {'ok' if not failed else f'{failed} failed'}")
sys.exit(1 if failed else 0)
