"""Every environment variable the project reads is documented where a user looks.

A variable `MLAB_*` read by a tracked file outside tests/ (C, HIP and CUDA:
the quoted name, as getenv and knob_refused take it; Python: os.environ /
os.getenv; shell: $MLAB_X or ${MLAB_X...}; CMake: $ENV{MLAB_X}) must be
named in README.md, data/README.md, plots/README.md or harness/sweep/README.md,
or in the opening comment (a shell or C file's first comment block, a Python
file's docstring) of a file that reads it: a script's knobs live in its head.

HOOKS lists the test hooks (read by the program, set only by tests): each
must still be read somewhere outside tests/ and set by some test, so the list
can only name real hooks.

The check can fail: --self-test runs it on a scratch tree holding one
documented and one undocumented read of each kind and expects exactly the
undocumented ones.

Usage: test_env_docs.py [REPO] [--self-test]   (default $MLAB_SRC or the parent)."""
import os
import re
import subprocess
import sys

import mlabtest

DOCS = ["README.md", "data/README.md", "plots/README.md", "harness/sweep/README.md"]
# (variable, what it does): read by the program, set by tests only
HOOKS = {
    "MLAB_RESULTS_TEST_KILL": "results_write.c: die between the temporary file and its rename",
    "MLAB_H5_TEST_CRASH": "guard.c: the contained HDF5 parse crashes",
    "MLAB_H5_TEST_HANG": "guard.c: the contained HDF5 parse hangs",
    "MLAB_RUN_TEST_STOP_AFTER": "cmd_run.c: SIGTERM raised after case N, as if sent",
}
READS = {
    "c": re.compile(r'"(MLAB_[A-Z0-9_]+)"'),
    "py": re.compile(r'(?:environ(?:\.get)?\s*[\[(]|getenv\()\s*["\'](MLAB_[A-Z0-9_]+)'),
    "sh": re.compile(r'\$\{?(MLAB_[A-Z0-9_]+)'),
    "cmake": re.compile(r'\$ENV\{(MLAB_[A-Z0-9_]+)\}'),
}


def kind_of(f):
    ext = os.path.splitext(f)[1]
    if ext in (".c", ".h", ".hip", ".cu", ".cpp", ".in"):
        return "c"
    if ext == ".py":
        return "py"
    if ext == ".sh" or f in (".ci/run",):
        return "sh"
    if ext == ".cmake" or os.path.basename(f) == "CMakeLists.txt":
        return "cmake"
    return None


def header(text, kind):
    """The file's opening comment: a Python docstring, else the leading comment lines."""
    if kind == "py":
        m = re.match(r'(?:#[^\n]*\n|\s*\n)*\s*[rR]?("""|\'\'\')(.*?)\1', text, re.S)
        return m.group(2) if m else ""
    lead = {"c": ("/*", "*", "//"), "sh": ("#",), "cmake": ("#",)}[kind]
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith(lead):
            break
        out.append(line)
    return "\n".join(out)


def tracked(root):
    """git's tracked files, or (a copy without .git, as the GPU machine's) the tree without build outputs."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".git", "build", "out", ".peers", ".bisect"))]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def undocumented(root, files):
    """({variable: [files reading it]} of the undocumented, {variable: [files]} of every read)."""
    doc = "".join(open(os.path.join(root, d), encoding="utf-8").read()
                  for d in DOCS if os.path.exists(os.path.join(root, d)))
    reads, heads = {}, {}
    for f in files:
        kind = kind_of(f)
        p = os.path.join(root, f)
        if kind is None or f.startswith("tests/") or not os.path.isfile(p):
            continue
        text = open(p, encoding="utf-8", errors="replace").read()
        for v in set(READS[kind].findall(text)):
            reads.setdefault(v, []).append(f)
            heads.setdefault(v, []).append(header(text, kind))
    named = lambda v, text: re.search(r"\b" + v + r"\b", text) is not None
    bad = {v: fs for v, fs in reads.items()
           if v not in HOOKS and not named(v, doc) and not any(named(v, h) for h in heads[v])}
    return bad, reads


def self_test(tmp):
    """A scratch tree: each kind reads a documented and an undocumented variable."""
    files = {
        "README.md": "`MLAB_DOC_README` does x.\n",
        "harness/a.c": '/* a.c: MLAB_DOC_C_HEAD sets y */\n#include <stdlib.h>\n'
                       'int f(void) { return !!getenv("MLAB_DOC_C_HEAD") + !!getenv("MLAB_UNDOC_C")'
                       ' + !!getenv("MLAB_DOC_README"); }\n/* MLAB_UNDOC_C only below the head */\n',
        "harness/b.py": '"""b.py: MLAB_DOC_PY_HEAD."""\nimport os\nos.environ.get("MLAB_DOC_PY_HEAD")\n'
                        'os.environ["MLAB_UNDOC_PY"]\n',
        "harness/c.sh": "#!/bin/sh\n# c.sh: MLAB_DOC_SH_HEAD\necho ${MLAB_DOC_SH_HEAD:-} $MLAB_UNDOC_SH\n",
        "x.cmake": "# MLAB_DOC_CM_HEAD\nset(a $ENV{MLAB_DOC_CM_HEAD} $ENV{MLAB_UNDOC_CM})\n",
        "tests/t.sh": "echo $MLAB_UNDOC_TESTS_ONLY\n",
    }
    for f, t in files.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, f)) or tmp, exist_ok=True)
        open(os.path.join(tmp, f), "w").write(t)
    bad, _ = undocumented(tmp, list(files))
    want = {"MLAB_UNDOC_C", "MLAB_UNDOC_PY", "MLAB_UNDOC_SH", "MLAB_UNDOC_CM"}
    mlabtest.say(set(bad) == want, "self-test: exactly the undocumented reads are found",
                 f"found {sorted(bad)}, want {sorted(want)}")


def main():
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    tmp = mlabtest.scratch("env_docs")
    if "--self-test" in sys.argv[1:]:
        self_test(tmp)
        return mlabtest.finish("test_env_docs --self-test", tmp)
    root = os.path.realpath(args[0] if args else os.environ.get(
        "MLAB_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
    files = tracked(root)
    bad, reads = undocumented(root, files)
    for v, fs in sorted(bad.items()):
        mlabtest.check(False, f"{v} (read by {', '.join(sorted(fs))}) is in no user document"
                              f" ({', '.join(DOCS)}) nor in the opening comment of a file reading it")
    tests_text = "".join(open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
                         for f in files if f.startswith("tests/") and kind_of(f))
    for v in HOOKS:
        mlabtest.check(v in reads, f"HOOKS names {v}, which nothing outside tests/ reads: remove it")
        mlabtest.check(v in tests_text, f"HOOKS names {v}, which no test sets: a hook no test uses")
    return mlabtest.finish("test_env_docs", tmp, f" ({len(reads)} variables read, {len(HOOKS)} test hooks)")


if __name__ == "__main__":
    sys.exit(main())
