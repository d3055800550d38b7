"""papers/ideas.md stays the index of papers/perf-notes.md.

The index lists every performance idea the notes measured or weighed, one
table row each: | idea | version | aimed at | outcome | status |. Pinned:
  - every entry of the notes (a "### vN" heading) has at least one row, so a
    session that adds an entry indexes its ideas too;
  - every version a row names (its second cell, "vN") is an entry of the notes;
  - every row has the five cells and a status that starts with one of the
    index's words (landed, dropped, not run, rejected on paper, probe, not
    stated).
It first checks itself on a synthetic pair with one violation of each rule
(each must be found), then checks the repository's.

Usage: test_ideas.py [REPO]   (default $MLAB_SRC or the parent folder)."""
import os
import re
import sys

STATUS = ("landed", "dropped", "not run", "rejected on paper", "probe", "not stated")


def problems(notes, index):
    """The rules above broken by the notes' text and the index's text: a list of lines."""
    out = []
    versions = {int(v) for v in re.findall(r"^### v(\d+)\b", notes, re.M)}
    cited = set()
    for n, line in enumerate(index.split("\n"), 1):
        if not line.startswith("| ") or line.startswith("| idea ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            out.append(f"line {n}: {len(cells)} cells, not 5 (a '|' in a cell?)")
            continue
        if not cells[4].startswith(STATUS):
            out.append(f"line {n}: status '{cells[4][:40]}' is none of {', '.join(STATUS)}")
        vs = {int(v) for v in re.findall(r"\bv(\d+)\b", cells[1])}
        if not vs and "section" not in cells[1]:
            out.append(f"line {n}: no version in '{cells[1]}'")
        for v in sorted(vs - versions):
            out.append(f"line {n}: v{v} is no entry of the notes")
        cited |= vs
    for v in sorted(versions - cited):
        out.append(f"v{v}: an entry of the notes with no row in the index")
    return out


def selftest():
    notes = "### v1 (a)\n\n### v2 (b)\n\n### v3 (c)\n"
    head = "| idea | version | aimed at | outcome | status |\n| --- | --- | --- | --- | --- |\n"
    good = head + "| x | v1 | y | z | landed |\n| x | v2, v3 | y | z | dropped (branch kept) |\n"
    assert problems(notes, good) == [], problems(notes, good)
    bad = {
        "no row": head + "| x | v1 | y | z | landed |\n",
        "cells": good + "| x | v1 | y | landed |\n",
        "status": good + "| x | v1 | y | z | kept |\n",
        "unknown version": good + "| x | v9 | y | z | landed |\n",
        "no version": good + "| x | soon | y | z | landed |\n",
    }
    for what, text in bad.items():
        if not problems(notes, text):
            print(f"FAIL: the check misses a broken index ({what})")
            return False
    return True


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MLAB_SRC") or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not selftest():
        return 1
    notes = open(os.path.join(repo, "papers", "perf-notes.md"), encoding="utf-8").read()
    index = open(os.path.join(repo, "papers", "ideas.md"), encoding="utf-8").read()
    bad = problems(notes, index)
    for b in bad:
        print(f"FAIL: papers/ideas.md: {b}")
    if not bad:
        rows = sum(1 for x in index.split("\n") if x.startswith("| ") and not x.startswith(("| idea ", "| ---")))
        print(f"ok: papers/ideas.md indexes every entry of perf-notes.md ({rows} rows)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
