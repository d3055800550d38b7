#!/usr/bin/env python3
"""test_git_info.py: the commit and dirty flag a build records
(harness/cmake/git_info.cmake) follow the source tree at every build, not the
configure: a build folder configured at commit A and built after commit B
recorded A in every results file, `mlabench --version` and case producer
(seen in this project's own checkout: 8943383-dirty at 8c7a5c5).

Pins, on a scratch git repository:
  - the header names HEAD and dirty 0; an edit of a tracked file makes it
    dirty 1; a new commit names the new HEAD, dirty 0
  - a run with nothing changed leaves the header untouched (its mtime), so
    an unchanged tree recompiles nothing
  - -DCOMMIT=<hash> wins (a copied tree), with -DCOMMIT_DIRTY
  - outside a checkout the commit is "unknown"
and on this build folder: the build's target `mlab_git_info` writes
generated/git_info.h naming the source tree's HEAD (unless the cache sets
MLAB_COMMIT, or the source is not a git checkout: then that part is skipped,
saying so).
Environment: MLAB_SRC, MLAB_BUILD (tests/CMakeLists.txt). Exit 0 pass, 1 fail,
77 skip (no git or cmake).
"""
import os
import re
import shutil
import subprocess
import sys

from mlabtest import finish, say as check, scratch

SRC = os.environ.get("MLAB_SRC", "")
BUILD = os.environ.get("MLAB_BUILD", "")
SCRIPT = os.path.join(SRC, "harness", "cmake", "git_info.cmake")


def header(path):
    text = open(path).read()
    c = re.search(r'#define MLAB_GIT_COMMIT "([^"]*)"', text)
    d = re.search(r"#define MLAB_GIT_DIRTY (\d)", text)
    return (c.group(1) if c else None, int(d.group(1)) if d else None)


def script(src, out, *extra):
    p = subprocess.run(["cmake", f"-DSRC={src}", f"-DOUT={out}", *extra, "-P", SCRIPT],
                       capture_output=True, text=True, timeout=60)
    if p.returncode:
        print(p.stdout + p.stderr)
    return p.returncode


def git(repo, *argv):
    return subprocess.run(["git", "-C", repo, *argv], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def main():
    if not shutil.which("git") or not shutil.which("cmake") or not os.path.isfile(SCRIPT):
        print("SKIP: needs git, cmake and harness/cmake/git_info.cmake")
        return 77
    tmp = scratch("git_info")
    repo, out = os.path.join(tmp, "repo"), os.path.join(tmp, "git_info.h")
    os.mkdir(repo)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    open(os.path.join(repo, "a.c"), "w").write("int a;\n")
    git(repo, "add", "a.c")
    git(repo, "commit", "-qm", "a")
    a = git(repo, "rev-parse", "HEAD")
    check(script(repo, out) == 0 and header(out) == (a, 0), "a clean checkout: its HEAD, dirty 0", str(header(out)))
    open(os.path.join(repo, "a.c"), "a").write("int b;\n")
    check(script(repo, out) == 0 and header(out) == (a, 1), "an edited tracked file: dirty 1", str(header(out)))
    git(repo, "commit", "-qam", "b")
    b = git(repo, "rev-parse", "HEAD")
    check(script(repo, out) == 0 and header(out) == (b, 0) and a != b,
          "a new commit: the new HEAD, dirty 0 (not the first build's)", str(header(out)))
    os.utime(out, ns=(10**18, 10**18))
    check(script(repo, out) == 0 and os.stat(out).st_mtime_ns == 10**18,
          "nothing changed: the header is not rewritten (nothing recompiles)")
    check(script(repo, out, "-DCOMMIT=abc123", "-DCOMMIT_DIRTY=1") == 0 and header(out) == ("abc123", 1),
          "-DCOMMIT wins over git, with -DCOMMIT_DIRTY", str(header(out)))
    plain = os.path.join(tmp, "plain")
    os.mkdir(plain)
    check(script(plain, out) == 0 and header(out) == ("unknown", 0), "outside a checkout: unknown",
          str(header(out)))
    # this build folder: its target writes the source tree's HEAD
    cache = os.path.join(BUILD, "CMakeCache.txt")
    if not BUILD or not os.path.isfile(cache):
        print("(this build folder's part skipped: MLAB_BUILD has no CMakeCache.txt)")
    elif re.search(r"^MLAB_COMMIT:STRING=.+$", open(cache).read(), re.M):
        print("(this build folder's part skipped: its cache sets MLAB_COMMIT)")
    elif subprocess.run(["git", "-C", SRC, "rev-parse", "HEAD"], capture_output=True).returncode:
        print("(this build folder's part skipped: the source is not a git checkout)")
    else:
        p = subprocess.run(["cmake", "--build", BUILD, "--target", "mlab_git_info"], capture_output=True, text=True,
                           timeout=120)
        gen = os.path.join(BUILD, "generated", "git_info.h")
        got = header(gen) if os.path.isfile(gen) else None
        check(p.returncode == 0 and got is not None and got[0] == git(SRC, "rev-parse", "HEAD"),
              "the build's target mlab_git_info writes the source tree's HEAD", f"{got}\n{p.stdout[-500:]}{p.stderr[-500:]}")
    return finish("test_git_info", tmp)


if __name__ == "__main__":
    sys.exit(main())
