"""No tracked file sends a reader outside the repository.

Users have the repository only: no file may point at the workspace that
produced it (the shared folder beside the checkout, the workspace tree), at a
home folder or another machine's absolute path, or at the specification and
submissions that lived beside the repository (the problem's specification is
papers/spec.md now). Binary files (.h5, .png) are not scanned, nor the
recorded command line of a generated report (papers/reports/*/report.md,
"| command_line |": a fact about the measuring machine, not a reference).

KNOWN lists violations in files owned elsewhere that are still to be fixed:
they are printed on every run (so the test stays honest), and an entry that
no longer matches fails the test, so the list can only shrink.

Usage: test_no_outside_paths.py [REPO]   (default $MLAB_SRC or the parent)."""
import os
import re
import subprocess
import sys

# spelled in pieces so this file does not match itself
PATTERNS = [
    ("the shared workspace", re.compile(r"\.\./" + "shared")),
    ("the /work tree", re.compile(r"(?<![\w.])/" + r"work/")),
    ("a home folder", re.compile(r"(?<![\w.])(/" + r"home/\w|/" + r"root/|/" + r"Users/\w|~" + "/)")),
    ("the old task file", re.compile(r"\b" + "TASK" + r"\.md\b")),
    ("the old seeds folder", re.compile(r"(?<![\w/])" + "seeds" + r"/")),
]
BINARY = (".h5", ".png", ".jpg", ".gz", ".pdf")
# (file, what): a known violation still to be fixed in a file this change may not touch
KNOWN = []


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []  # no git: the source tree, without build outputs
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".git", "build", "out"))]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def scan(root, files):
    """[(file, line number, what, text)] of every match."""
    hits = []
    for f in files:
        if f.endswith(BINARY):
            continue
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        report = f.startswith("papers/reports/") and f.endswith("/report.md")
        for n, line in enumerate(text.splitlines(), 1):
            if report and line.startswith("| command_line |"):
                continue
            for what, rx in PATTERNS:
                if rx.search(line):
                    hits.append((f, n, what, line.strip()[:100]))
    return hits


def self_test(tmp_lines):
    """Every pattern must match its example, and none a harmless line."""
    bad = []
    for (what, rx), line in zip(PATTERNS, tmp_lines):
        if not rx.search(line):
            bad.append(f"self-test: '{what}' does not match {line!r}")
    for line in ("papers/spec.md, the shared memory tile", "a/network/works", "seedsx/ no",
                 "/tmp/out is scratch", "TASK_md"):
        for what, rx in PATTERNS:
            if rx.search(line):
                bad.append(f"self-test: '{what}' matches the harmless {line!r}")
    return bad


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "MLAB_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    root = os.path.realpath(root)
    fails = self_test(["see ../" + "shared/x", "/" + "work/shared/x", "/" + "home/me/x",
                       "TASK" + ".md, section 2", "in " + "seed" + "s/ there"])
    files = tracked(root)
    hits = scan(root, files)
    known_hit = set()
    for f, n, what, line in hits:
        if (f, what) in KNOWN:
            known_hit.add((f, what))
            print(f"known (to fix): {f}:{n}: {what}: {line}")
        else:
            fails.append(f"{f}:{n}: points outside the repository ({what}): {line}")
    for k in KNOWN:
        if k not in known_hit:
            fails.append(f"allow-list entry {k} no longer matches: remove it from KNOWN")
    for f in fails:
        print("FAIL:", f)
    if fails:
        return 1
    print(f"test_no_outside_paths: ok ({len(files)} files, {len(known_hit)} known"
          " violations listed above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
