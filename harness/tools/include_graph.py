#!/usr/bin/env python3
"""include_graph.py: who includes whom, per folder, and the one-way layer rule.

The layers go one way: harness -> variants -> reference (tests may include
anything). A lower layer never includes a higher one: reference/ includes
nothing from variants/ or harness/, variants/ nothing from harness/, neither
directly nor through another header.

Usage: harness/tools/include_graph.py [--check] [--edges] [--lines] [REPO]
  prints the folder-to-folder arrows (how many #include "..." lines), then
  every arrow that crosses a folder; --edges prints every arrow; --lines
  prints the line count of every source file per folder, marking those over
  LONG lines (the issue's "no god files" bar; informative, never fails).
  --check: exit 1 when a lower layer reaches a higher one (directly or
  through the headers it includes) and the pair is not in KNOWN; KNOWN pairs
  are printed as known violations, and a KNOWN pair that no longer occurs
  fails too (so the list can only shrink). It first checks itself on a
  synthetic tree with one upward arrow (which must be found).
Quoted includes are resolved as the compilers here do: beside the including
file, then from the repository root; <system> headers are not followed."""
import os
import re
import shutil
import sys
import tempfile

FOLDERS = ["reference", "variants", "harness", "tests"]
RANK = {"reference": 0, "variants": 1, "harness": 2, "tests": 3}
SOURCES = (".c", ".h", ".hip", ".cpp", ".cu", ".cuh", ".h.in")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# (lower-layer file, higher-layer file it reaches): today's known violations.
# The lead is moving the GPU interface into variants/; empty this list then.
KNOWN = []  # emptied: runner.hip now includes only variants/ and reference/ headers


def folder_of(path):
    return path.split("/", 1)[0]


def sources(root):
    out = []
    for f in FOLDERS:
        for d, dirs, names in os.walk(os.path.join(root, f)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(SOURCES):
                    out.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
    return out


def resolve(src, name, known):
    """The repository path an #include "name" in src means, or None (external)."""
    for base in (os.path.dirname(src), ""):
        p = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
        for cand in (p, p + ".in"):  # build_info.h is generated from build_info.h.in
            if cand in known:
                return cand
    return None


def graph(root):
    """{file: [included repository files]}, [(file, name)] unresolved."""
    files = sources(root)
    known = set(files)
    g, unresolved = {}, []
    for f in files:
        g[f] = []
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if not m:
                    continue
                r = resolve(f, m.group(1), known)
                if r:
                    g[f].append(r)
                else:
                    unresolved.append((f, m.group(1)))
    return g, unresolved


def upward(g):
    """{(lower file, higher file): chain} for every higher-layer file a
    lower-layer file reaches through its includes (shortest chain)."""
    found = {}
    for start in g:
        r0 = RANK[folder_of(start)]
        seen, queue = {start: [start]}, [start]
        while queue:
            cur = queue.pop(0)
            for nxt in g.get(cur, []):
                if nxt in seen:
                    continue
                seen[nxt] = seen[cur] + [nxt]
                queue.append(nxt)
                if RANK[folder_of(nxt)] > r0:
                    found[(start, nxt)] = seen[nxt]
    return found


LONG = 600


def line_counts(root, g, out):
    for f in FOLDERS:
        files = sorted((sum(1 for _ in open(os.path.join(root, x), encoding="utf-8",
                                            errors="replace")), x) for x in g if folder_of(x) == f)
        total = sum(n for n, _ in files)
        out.write(f"{f}/: {total} lines in {len(files)} files\n")
        for n, x in sorted(files, reverse=True):
            out.write(f"  {n:6d} {x}{'  (over %d)' % LONG if n > LONG else ''}\n")


def report(g, unresolved, edges, out):
    counts = {}
    for f, incs in g.items():
        for i in incs:
            k = (folder_of(f), folder_of(i))
            counts[k] = counts.get(k, 0) + 1
    out.write("folder -> folder (#include lines)\n")
    for a in FOLDERS:
        row = ", ".join(f"{b} {counts[(a, b)]}" for b in FOLDERS if (a, b) in counts)
        out.write(f"  {a:9} -> {row or '(nothing)'}\n")
    out.write("arrows between folders (file -> included file)\n")
    for f in sorted(g):
        for i in g[f]:
            if edges or folder_of(f) != folder_of(i):
                mark = "  UPWARD" if RANK[folder_of(i)] > RANK[folder_of(f)] else ""
                out.write(f"  {f} -> {i}{mark}\n")
    for f, name in unresolved:
        out.write(f"  {f} -> \"{name}\" (not in the repository)\n")


def check(g, known_pairs, out):
    """Problems (strings); prints the known violations it meets."""
    problems, seen_known = [], set()
    for (lo, hi), chain in sorted(upward(g).items()):
        text = " -> ".join(chain)
        if (lo, hi) in known_pairs:
            seen_known.add((lo, hi))
            out.write(f"known upward arrow (to remove): {text}\n")
        else:
            problems.append(f"upward arrow: {text} ({folder_of(lo)} must not include"
                            f" {folder_of(hi)}/)")
    for k in known_pairs:
        if k not in seen_known:
            problems.append(f"KNOWN entry {k} no longer occurs: remove it from KNOWN")
    return problems


def self_test():
    tmp = tempfile.mkdtemp(prefix="mlab_incgraph_")
    try:
        files = {"reference/a.h": '#include "b.h"\n', "reference/b.h": '#include "../harness/h.h"\n',
                 "variants/v.h": '#include "../reference/a.h"\n#include <stdio.h>\n',
                 "harness/h.h": '#include "variants/v.h"\n', "tests/t.c": '#include "harness/h.h"\n'}
        for f, body in files.items():
            os.makedirs(os.path.join(tmp, os.path.dirname(f)), exist_ok=True)
            open(os.path.join(tmp, f), "w").write(body)
        g, _ = graph(tmp)
        class Null:
            def write(self, _):
                pass
        p = check(g, [], Null())
        want = ["reference/a.h -> reference/b.h -> harness/h.h", "reference/b.h -> harness/h.h",
                "reference/a.h -> reference/b.h -> harness/h.h -> variants/v.h"]
        text = "\n".join(p)
        bad = [f"self-test: did not find {w}" for w in want if w not in text]
        if any(x.startswith(("upward arrow: tests/", "upward arrow: harness/")) for x in p):
            bad.append("self-test: a downward arrow was called upward: " + text)
        p2 = check(g, [("reference/b.h", "harness/h.h"), ("variants/x.h", "harness/h.h")], Null())
        if not any("('variants/x.h', 'harness/h.h') no longer occurs" in x for x in p2):
            bad.append("self-test: a stale KNOWN entry was not reported")
        return bad
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    root = os.path.realpath(args[0] if args else
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    g, unresolved = graph(root)
    report(g, unresolved, "--edges" in argv, sys.stdout)
    if "--lines" in argv:
        line_counts(root, g, sys.stdout)
    if "--check" not in argv:
        return 0
    problems = self_test() + check(g, KNOWN, sys.stdout)
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"include_graph: ok (no upward arrow besides the {len(KNOWN)} known ones above;"
          f" {sum(len(v) for v in g.values())} includes in {len(g)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
