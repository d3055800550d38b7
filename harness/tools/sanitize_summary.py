#!/usr/bin/env python3
"""sanitize_summary.py: what compute-sanitizer found, one line per site.

Usage: python3 harness/tools/sanitize_summary.py [--known FILE] LOG [LOG ...]
       (each LOG a `compute-sanitizer --log-file` of one run, labelled by
       its file name without .log: gpu_sanitize.sh names them TOOL-RUN.log)

NVIDIA's compute-sanitizer prints every finding as a block of lines that
start with "=========" (one per thread for memcheck, initcheck and
synccheck: thousands for one bad barrier), then a summary line:
  ========= ERROR SUMMARY: N errors[ ... were not printed ...]    (memcheck, initcheck, synccheck)
  ========= RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)
This folds the blocks into sites: the finding's first line, where it
happened ("at FUNCTION in FILE:LINE", offsets dropped) and the first
device frame (the kernel), with how many blocks printed each and racecheck's
"[N hazards]". Per log it prints
  LABEL: clean                                  (a summary of 0 and no finding)
  LABEL: N findings at K sites                  (then one indented line a site)
  LABEL: no summary (the run did not finish?)   (a log cut off: counted as a finding)
and exits 0 when every log is clean, 1 when any is not (a racecheck
warning counts: the tree keeps none), 2 on usage or an unreadable log.

--known FILE: findings under investigation, one a line, "TOOL | TEXT |
WHY" (# comments and blank lines skipped): a site of a log whose label
starts with TOOL and whose text contains every piece of TEXT (pieces
separated by " & ") is printed "known: WHY" and does not make the exit 1;
every other finding still does. The file is
harness/sanitize_known.txt: each entry names the notes that keep it open.
"""
import argparse
import re
import sys

PFX = "========="
OFFSET = re.compile(r"\+0x[0-9a-f]+")


def _site_text(line):
    """a frame or access line without its address offset and padding"""
    return " ".join(OFFSET.sub("", line).split())


def parse(text):
    """(summary, sites): the count the summary line states (None if
    absent), sites a dict key -> [printed blocks, hazards]"""
    blocks, cur = [], []
    summary = None
    for raw in text.splitlines():
        if not raw.startswith(PFX):
            continue
        body = raw[len(PFX):].strip()
        if re.match(r"ERROR SUMMARY: \d+ errors? (were|was) not printed", body):
            continue  # the second summary line of a --print-limit cut
        m = re.match(r"ERROR SUMMARY: (\d+) errors?$", body)
        r = re.match(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", body)
        if m or r:
            summary = int(m.group(1)) if m else int(r.group(2)) + int(r.group(3))
        if m or r or not body or body == "COMPUTE-SANITIZER":  # a block ends
            if cur:
                blocks.append(cur)
                cur = []
            continue
        cur.append(body)
    if cur:
        blocks.append(cur)
    sites = {}
    for b in blocks:
        head = b[0]
        if head.startswith("Target application returned"):
            continue  # the process's exit status, not a finding
        at = next((x for x in b[1:] if x.startswith("at ") or x.startswith("and ")), "")
        dev = next((x for x in b if x.startswith("Device Frame:")), "")
        haz = 0
        m = re.search(r"\[(\d+) hazards?\]", " ".join(b))
        if m:
            haz = int(m.group(1))
        key = " | ".join(_site_text(x) for x in (head, at, dev) if x)
        key = re.sub(r" \[\d+ hazards?\]", "", key)
        s = sites.setdefault(key, [0, 0])
        s[0] += 1
        s[1] += haz
    return summary, sites


def read_known(path):
    """[(tool, text, why)] of a --known file; ValueError on a bad line"""
    known = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [x.strip() for x in line.split("|")]
            if len(parts) != 3 or not all(parts):
                raise ValueError(f"{path}:{n}: expected 'TOOL | TEXT | WHY'")
            known.append(tuple(parts))
    return known


def main(argv):
    ap = argparse.ArgumentParser(prog="sanitize_summary.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--known", metavar="FILE", help="findings under investigation (TOOL | TEXT | WHY)")
    ap.add_argument("logs", nargs="+", metavar="LOG")
    a = ap.parse_args(argv)  # usage errors: argparse's usage and error lines, exit 2
    try:
        known = read_known(a.known) if a.known else []
    except (OSError, ValueError) as e:
        print(f"sanitize_summary: {e}", file=sys.stderr)
        return 2
    dirty = False
    for path in a.logs:
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError as e:
            print(f"sanitize_summary: {path}: {e.strerror}", file=sys.stderr)
            return 2
        label = path.rsplit("/", 1)[-1]
        label = label[:-4] if label.endswith(".log") else label
        summary, sites = parse(text)
        if summary is None:
            print(f"{label}: no summary (the run did not finish?)")
            dirty = True
        elif summary == 0 and not sites:
            print(f"{label}: clean")
            continue
        else:
            print(f"{label}: {summary} findings at {len(sites)} sites")
            if not sites:
                dirty = True  # a count without a printed finding: nothing to match
        for key, (n, haz) in sorted(sites.items(), key=lambda kv: -kv[1][0]):
            extra = f", {haz} hazards" if haz else ""
            why = next((w for t, x, w in known if label.startswith(t) and all(y in key for y in x.split(" & "))),
                       None)
            if why is None:
                dirty = True
            print(f"  {n} printed{extra}: {key}" + (f"\n    known: {why}" if why else ""))
    return 1 if dirty else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
