"""Report folders stay lean and re-runnable (papers/reports/*/).

Each report folder holds only: README.md (saying what, when, commit and
machine), the results files it cites (*.h5), report.md (`mlabench report`),
the figures its prose cites (*.png, one format), and one command, rerun.sh
(executable). No logs, patches, scripts or subfolders; no file over
MAX_FILE bytes, no folder over MAX_DIR; every .h5 is named by the README and
every .png by the README or report.md (no dead files); the README, report.md
links and rerun.sh point at nothing outside the repository.

Usage: test_reports.py [REPO]   (default $MLAB_SRC or the parent folder).
It first checks itself on a synthetic tree with one violation of each rule
(each must be found), then checks the repository's reports."""
import os
import re
import shutil
import sys
import tempfile

MAX_FILE = 512 * 1024
MAX_DIR = 1024 * 1024
# all the folders together: the device tool copies the tracked tree to the GPU
# machine, 64 MiB with what a call carries; both peers' packs and their
# wheels (.peers/) take ~8 MiB and the rest of the tree ~2.5, and at 53 MiB of
# reports the tool refused the tree with .peers carried (2026-12-06), so the
# reports get 52 (past it, thin the superseded folders: their figures are
# rerun.sh's, their files in git; results files written before e6e7441 were
# mostly uncompressed: `h5repack -f GZIP=9` took the folders 54.7 -> 40.4 MB,
# h5diff and `mlabench export` the same)
MAX_ALL = 52 * 1024 * 1024
ALLOWED = re.compile(r"^(README\.md|report\.md|rerun\.sh|[\w.+-]+\.h5|[\w.+-]+\.png)$")
README_FIELDS = ("**What**", "**When**", "**Commit**", "**Machine**")
# absolute paths of some machine (scratch /tmp is named in recorded command lines)
MACHINE_PATH = re.compile(r"(?<![\w.])(/(work|home|root|Users|mnt|srv|scratch)/|~" + "/)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
UPWARD = re.compile(r"(?<![\w/])((?:\.\./)+[\w./-]*|\.\.(?![\w./]))")


def inside(root, base, rel):
    """The path rel (relative to folder base) stays inside root."""
    p = os.path.realpath(os.path.join(base, rel))
    return p == root or p.startswith(root + os.sep)


def check_folder(root, d, problems):
    name = os.path.relpath(d, root)
    entries = sorted(os.listdir(d))
    total = 0
    for e in entries:
        p = os.path.join(d, e)
        if os.path.isdir(p):
            problems.append(f"{name}/{e}: a subfolder (a report folder is flat)")
            continue
        if not ALLOWED.match(e):
            problems.append(f"{name}/{e}: not a report file kind (README.md, report.md,"
                            " rerun.sh, *.h5, *.png)")
        size = os.path.getsize(p)
        total += size
        if size > MAX_FILE:
            problems.append(f"{name}/{e}: {size} bytes > {MAX_FILE}")
    if total > MAX_DIR:
        problems.append(f"{name}: {total} bytes in all > {MAX_DIR}")
    texts = {}
    for must in ("README.md", "rerun.sh"):
        if must not in entries:
            problems.append(f"{name}: no {must}")
    for t in ("README.md", "report.md", "rerun.sh"):
        if t in entries:
            texts[t] = open(os.path.join(d, t), encoding="utf-8").read()
    if "rerun.sh" in entries and not os.access(os.path.join(d, "rerun.sh"), os.X_OK):
        problems.append(f"{name}/rerun.sh: not executable")
    readme = texts.get("README.md", "")
    for f in README_FIELDS:
        if "README.md" in texts and f not in readme:
            problems.append(f"{name}/README.md: says no {f} (what, when, commit, machine)")
    for e in entries:
        if e.endswith(".h5") and e not in readme:
            problems.append(f"{name}/{e}: not named in README.md (a dead file?)")
        if e.endswith(".png") and e not in readme and e not in texts.get("report.md", ""):
            # the README may name figures by suffix (STEM.latency.png, .error.png)
            stem_kind = "." + e.split(".", 1)[1] if "." in e else e
            if stem_kind not in readme:
                problems.append(f"{name}/{e}: cited by neither README.md nor report.md")
    for t, s in texts.items():
        for n, line in enumerate(s.splitlines(), 1):
            if t != "report.md" and MACHINE_PATH.search(line):
                problems.append(f"{name}/{t}:{n}: a machine path: {line.strip()[:80]}")
            for m in LINK.finditer(line):
                target = m.group(1).split("#")[0]
                if re.match(r"^[a-z]+://", target) or not target:
                    continue
                if target.startswith("/") or not inside(root, d, target):
                    problems.append(f"{name}/{t}:{n}: link outside the repository: {target}")
                elif not os.path.exists(os.path.join(d, target)):
                    problems.append(f"{name}/{t}:{n}: link to a missing file: {target}")
            if t == "report.md":
                continue
            for m in UPWARD.finditer(line):
                if not inside(root, d, m.group(1)):
                    problems.append(f"{name}/{t}:{n}: path outside the repository: {m.group(1)}")


def check_reports(root, max_all=MAX_ALL):
    root = os.path.realpath(root)
    top = os.path.join(root, "papers", "reports")
    problems = []
    if not os.path.isdir(top):
        return [f"{top}: missing"], 0
    folders = 0
    total = 0
    for e in sorted(os.listdir(top)):
        p = os.path.join(top, e)
        if os.path.isdir(p):
            folders += 1
            check_folder(root, p, problems)
            total += sum(os.path.getsize(os.path.join(p, f)) for f in os.listdir(p)
                         if os.path.isfile(os.path.join(p, f)))
        else:
            problems.append(f"papers/reports/{e}: a loose file (reports live in folders)")
    if total > max_all:
        problems.append(f"papers/reports: {total} bytes in all > {max_all} (the device tool's"
                        " 64 MiB tree must still carry a peer's pack)")
    return problems, folders


def self_test():
    """Each rule must find its violation in a synthetic tree; a clean folder none."""
    tmp = tempfile.mkdtemp(prefix="mlab_reports_")
    try:
        def folder(name, files):
            d = os.path.join(tmp, "papers", "reports", name)
            os.makedirs(d)
            for f, body in files.items():
                p = os.path.join(d, f)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "wb") as fh:
                    fh.write(body if isinstance(body, bytes) else body.encode())
                if f == "rerun.sh":
                    os.chmod(p, 0o755)
            return d
        good_readme = ("- **What**: x\n- **When**: y\n- **Commit**: z\n- **Machine**: w\n"
                       "`r.h5`, `r.latency.png`\n")
        folder("good", {"README.md": good_readme, "rerun.sh": "cd \"$(dirname \"$0\")/../../..\"\n",
                        "r.h5": b"\x89HDF", "r.latency.png": b"\x89PNG",
                        "report.md": "![l](r.latency.png)\n"})
        problems, _ = check_reports(tmp)
        if problems:
            return ["self-test: a clean folder was refused: " + "; ".join(problems)]
        shutil.rmtree(os.path.join(tmp, "papers"))
        outside = "/" + "work/shared/spec"  # a machine path, spelled so no scan flags this file
        folder("bad", {"README.md": "- **What**: x\nsee " + outside + " and [t](../../../../x.md)\n",
                       "bench.log": "log", "run.patch": "p", "fig.svg": "<svg/>",
                       "logs/a.log": "a", "dead.h5": b"\0", "big.png": b"\0" * (MAX_FILE + 1),
                       "rerun.sh": "cd ../../../../exp/base\n"})
        folder("empty", {"notes.txt": "x"})
        os.chmod(os.path.join(folder("noexec", {"README.md": good_readme, "rerun.sh": "true\n"}),
                              "rerun.sh"), 0o644)
        open(os.path.join(tmp, "papers", "reports", "loose.md"), "w").write("x")
        problems, _ = check_reports(tmp, max_all=MAX_FILE)
        text = "\n".join(problems)
        expect = ["bad/bench.log: not a report file kind", "bad/run.patch: not a report",
                  "bad/fig.svg: not a report", "bad/logs: a subfolder", "bad/dead.h5: not named",
                  "bad/big.png: 524289 bytes >", "bad/big.png: cited by neither",
                  "bad/README.md: says no **When**", "bad/README.md:2: a machine path",
                  "bad/README.md:2: link outside the repository",
                  "bad/rerun.sh:1: path outside", "noexec/rerun.sh: not executable",
                  "empty: no README.md", "empty: no rerun.sh", "papers/reports/loose.md: a loose file",
                  "papers/reports: 5"]
        return [f"self-test: the rule behind '{e}' found nothing" for e in expect if e not in text]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "MLAB_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    fails = self_test()
    problems, folders = check_reports(root)
    for p in fails + problems:
        print("FAIL:", p)
    if fails or problems:
        return 1
    print(f"test_reports: ok ({folders} report folders lean: kinds, sizes, README fields,"
          " no dead files, no paths outside the repository)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
