"""harness/gpu_bisect.sh: the bisection's logic, without a GPU. A scratch git
repository of 9 commits (c0..c8) holds speed.txt, 1.0 up to c4 and 1.25 from
c5 on; a fake measure (MLAB_BISECT_MEASURE) writes each tree's results file
with results_tool at that speed (one seed: equal speeds give equal samples),
and fails for the trees named in MLAB_FAKE_BROKEN, as a build or run failing
would. The real `mlabench compare` judges each step.

- prepare c0 c8: 9 trees (papers/ left out) and their list;
- run: the first bad commit is c5, the results files and bisect.txt written;
  with c6 broken, c6 is skipped and c5 still found;
- with c5 broken, the answer is a range ("one of c5..c6"), exit 4, the
  steps' compare reports kept in OUT/bisect-logs;
- GOOD..BAD all at one speed: nothing to bisect, exit 3;
- GOOD that cannot be measured: exit 4;
- refusals (exit 2): more commits than MLAB_BISECT_MAX, BAD not a
  descendant of GOOD, an unknown commit, run before prepare, bad usage.

Usage: test_gpu_bisect.py RESULTS_TOOL SCRIPT (MLAB_BIN: the mlabench that compares)"""
import os
import subprocess
import sys

from mlabtest import finish, run, say, scratch

TOOL, SCRIPT = sys.argv[1], sys.argv[2]
MLAB = os.environ.get("MLAB_BIN", "build/mlabench")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True, check=True).stdout.strip()


def main():
    tmp = scratch("gpu_bisect")
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, "papers"))
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    shas = []
    for i in range(9):
        with open(os.path.join(repo, "speed.txt"), "w") as f:
            f.write("1.25\n" if i >= 5 else "1.0\n")
        with open(os.path.join(repo, "papers", "note.txt"), "w") as f:
            f.write(f"note {i}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"c{i}")
        shas.append(git(repo, "rev-parse", "--short", "HEAD"))
    fake = os.path.join(tmp, "fake.sh")
    with open(fake, "w") as f:
        f.write('t=$1 out=$2\ncase " ${MLAB_FAKE_BROKEN:-} " in *" $(basename "$t") "*) exit 1 ;; esac\n'
                f'exec "{TOOL}" write "$out" --scale "$(cat "$t/speed.txt")" --seed 7 --samples 20\n')
    bdir = os.path.join(tmp, "bisect")
    env = dict(os.environ, MLAB_BISECT_REPO=repo, MLAB_BISECT_DIR=bdir, MLAB_BISECT_MEASURE="bash " + fake,
               MLAB_BISECT_BIN=MLAB)

    def prepare(good, bad, **extra):
        return run(["bash", SCRIPT, "prepare", good, bad], env=dict(env, **extra))

    def bisect(name, **extra):
        out = os.path.join(tmp, name)
        r = run(["bash", SCRIPT, "run", "--variants", "bf16"], env=dict(env, OUT=out, **extra))
        txt = os.path.join(out, "bisect.txt")
        return r, out, open(txt).read() if os.path.exists(txt) else ""

    p = prepare(shas[0], shas[8])
    lst = open(os.path.join(bdir, "list")).read().splitlines() if os.path.exists(os.path.join(bdir, "list")) else []
    say(p.returncode == 0 and len(lst) == 9 and lst[0].startswith("00 " + shas[0]) and lst[8].endswith(" c8")
        and os.path.exists(os.path.join(bdir, "04", "speed.txt")) and not os.path.exists(os.path.join(bdir, "04", "papers")),
        "prepare c0 c8: 9 trees, GOOD first, papers/ left out", p.stdout + p.stderr + "\n".join(lst))

    r, out, txt = bisect("found")
    say(r.returncode == 0 and f"first bad commit: {shas[5]} (c5)" in r.stdout and f"parent {shas[4]} is good" in r.stdout
        and all(os.path.exists(os.path.join(out, f)) for f in ("bisect_good.h5", "bisect_first_bad.h5", "bisect_parent.h5"))
        and "== compare GOOD" in txt and "regressions:" in txt,
        "run: the first bad commit c5, its parent good, the files and compare's report", r.stdout + r.stderr + txt)
    steps = [ln for ln in txt.splitlines() if ln[:2].isdigit() and ": " in ln]
    say(len(steps) <= 5 and steps[0].startswith("08 ") and ": bad" in steps[0],
        f"BAD judged first, then {len(steps) - 1} midpoints (a bisection of 9, not a walk)", txt)

    r, out, txt = bisect("skip6", MLAB_FAKE_BROKEN="06")
    say(r.returncode == 0 and f"first bad commit: {shas[5]}" in r.stdout and f"06 {shas[6]}: skipped" in txt,
        "c6 broken: skipped, a neighbour tried, c5 still found", r.stdout + r.stderr + txt)

    r, out, txt = bisect("skip5", MLAB_FAKE_BROKEN="05")
    say(r.returncode == 4 and f"one of {shas[5]}..{shas[6]}" in r.stdout,
        "c5 broken: the answer is the range c5..c6, exit 4", r.stdout + r.stderr + txt)
    logs = os.path.join(out, "bisect-logs")
    kept = sorted(os.listdir(logs)) if os.path.isdir(logs) else []
    say(any(k.startswith("cmp") for k in kept) and "bisect-logs" in r.stderr,
        "a failed bisection keeps the steps' compare reports in OUT/bisect-logs (its temporary folder is removed)",
        f"{kept} {r.stderr}")
    say(not os.path.exists(os.path.join(tmp, "found", "bisect-logs")), "a bisection that ends well keeps no logs")

    r, out, txt = bisect("badgood", MLAB_FAKE_BROKEN="00")
    say(r.returncode == 4 and "GOOD" in r.stderr, "GOOD cannot be measured: exit 4", r.stdout + r.stderr)

    p = prepare(shas[0], shas[4])
    r, out, txt = bisect("same")
    say(p.returncode == 0 and r.returncode == 3 and "not worse than GOOD" in r.stderr,
        "c0..c4 at one speed: nothing to bisect, exit 3", p.stderr + r.stdout + r.stderr)

    for what, argv, extra, want in (
            ("more commits than MLAB_BISECT_MAX", ["prepare", shas[0], shas[8]], {"MLAB_BISECT_MAX": "4"}, "more than 4"),
            ("BAD not a descendant of GOOD", ["prepare", shas[8], shas[0]], {}, "not an ancestor"),
            ("an unknown commit", ["prepare", shas[0], "nosuchcommit"], {}, "no commit"),
            ("prepare without two commits", ["prepare", shas[0]], {}, "usage"),
            ("an unknown verb", ["bisect"], {}, "unknown verb"),
            ("run before prepare", ["run"], {"MLAB_BISECT_DIR": os.path.join(tmp, "empty")}, "nothing prepared")):
        u = run(["bash", SCRIPT] + argv, env=dict(env, **extra))
        say(u.returncode == 2 and want in u.stderr, f"{what}: exit 2", u.stdout + u.stderr)
    return finish("test_gpu_bisect", tmp)


sys.exit(main())
