#!/usr/bin/env python3
"""trace_summary.py: sum up the phase trace of a -DMLAB_TRACE build.

Usage: mlabench run ... 2> trace.log; python3 harness/tools/trace_summary.py trace.log
       python3 harness/tools/trace_summary.py --table trace1.log [trace2.log ...]
       python3 harness/tools/trace_summary.py --merge trace1.log [trace2.log ...]

A trace build (cmake -DCMAKE_CUDA_FLAGS=-DMLAB_TRACE, NVIDIA only) prints,
after each variant's cold samples, one line per block of the last cold call
(variants/runner.hip; %globaltimer, ns):
  TRACE variant ID last cold sample US us [query rows N longest L splits S name V]
  TA block start end                                  (Q amax pass, a8w8)
  TD block smid tiles start amax_wait tile0 loop_end end [drained]   (decode;
     drained: thread 0 past its last P.V result, in the epilogue; the wgmma
     decodes' consumer 0: amax_wait is its first unit's Q stored ("Q
     quantized"), loop_end its last unit's, tiles the block's)
  TC block start wait_done end weights                 (split combine: weights = thread 0's time
                                                        once its weights are known; 1 before s31)
  TE block lse_back weights_stored                    (split combine, since s32: thread 0's time once
                                                        warp 0's lse loads are back (their maximum
                                                        reduced), and before the weights' barrier)
  TC block synced weights data_read 2                  (cluster merge, by decode block)
  TC block arrived passed merged 3                     (barrier merge, by decode block)
  TQ block grid_wait_done amax_known                   (a8w8 decode: before the Q quantization;
                                                        the _qrow decodes, no grid wait: their
                                                        Q row's loads back, every head's amax
                                                        known)
  TK block unit_known [tile0_landed]                   (wgmma decode: its producer's unit known,
                                                        tok_kv in, the first copy next; the first
                                                        tile landed, seen by the producer, 0 if not
                                                        recorded)
  TW block tiles T prologue P wait W qk Q softmax S pv V epilogue E all A
                                                       (fp8_wgmma, -DMLAB_WG_PROF: clock64
                                                        cycles of thread 0's consumer)
  TP block tiles T rawwait R emptywait E convert C sync S
                                                       (mxfp4_wgmma, -DMLAB_WG_PROF: cycles
                                                        of producer 0's thread 0, T its
                                                        own tiles)
For each variant this prints, in us from the call's first kernel start: each
phase's min / median / max over blocks, the end phase (each block's end
minus its own loop end, the phase perf-notes v25-v26 followed), the time a
tile after the first, the gap between the loop ends of the two blocks
sharing an SM, the correlation over the blocks of their first tile's
landing (TK) and their loop end (three blocks or more), and the span of
the call next to the event-timed sample; and for TW lines each phase's
cycles a tile (prologue and epilogue: a block) over blocks. --table: one
Markdown row a run (medians) over every log given. --merge: one Markdown
row a run of a split call's merge by the combine (the last decode block's
end, then the combine's medians: past its wait, lse back, weights known,
end, and the two spans wait -> lse and weights -> end; "-" where the log has
no TE lines), the table of perf-notes v35; runs without a combine are left
out.
Exit codes: 0 done; 1 usage, or a log that cannot be read, holds no TRACE
line or a malformed trace line (a TRACE line without its sample, 7 words,
or a block line short of its values or not numbers: one line on stderr
naming the file and the line; nothing is printed then).
"""
import collections
import re
import statistics
import sys


def q(v):
    v = sorted(v)
    return f"min {v[0]:.1f} med {statistics.median(v):.1f} max {v[-1]:.1f}"


def phases(run):
    """The run's phase times over its blocks, in us from the call's first
    kernel start (None without decode blocks): the lists report() and
    table_row() take their min / median / max of, and that origin's us()"""
    a, d = run["A"], list(run["D"].values())
    if not d:
        return None
    o = min([x[0] for x in a.values()] + [x[2] for x in d])
    us = lambda t: (t - o) / 1e3
    qp = list(run.get("Q", {}).values())
    uk = list(run.get("K", {}).values())
    c = [x for x in run["C"].values() if x[3] not in (2, 3)]  # the combine's (2, 3: the one-launch merges')
    return us, {
        "amax start": [us(x[0]) for x in a.values()], "amax end": [us(x[1]) for x in a.values()],
        "decode start": [us(x[2]) for x in d], "unit known": [us(x[0]) for x in uk],
        "tile0 landed": [us(x[1]) for x in uk if len(x) > 1 and x[1]],
        # no grid wait where each block took the amax itself (MLAB_AMAX=inline)
        "grid wait done": [us(x[0]) for x in qp if x[0]], "amax known": [us(x[1]) for x in qp],
        "Q quantized": [us(x[3]) for x in d if x[3]], "tile0": [us(x[4]) for x in d],
        "loop end": [us(x[5]) for x in d], "block end": [us(x[6]) for x in d],
        "end phase": [(x[6] - x[5]) / 1e3 for x in d],
        "combine start": [us(x[0]) for x in c], "combine wait": [us(x[1]) for x in c],
        "combine end": [us(x[2]) for x in c],
        "combine weights": [us(x[3]) for x in c if x[3] > 3],
        "combine lse back": [us(x[0]) for x in run.get("E", {}).values()],
        "combine weights stored": [us(x[1]) for x in run.get("E", {}).values()]}


def landing_corr(run):
    """Pearson's correlation over the blocks of the first tile landed (TK)
    and the loop end (TD), and how many blocks: None under 3 blocks with
    both, or where either is the same for every block"""
    land = {b: x[1] for b, x in run.get("K", {}).items() if len(x) > 1 and x[1]}
    xy = [(land[b], x[5]) for b, x in run["D"].items() if b in land]
    if len(xy) < 3:
        return None
    o = min(a for a, _ in xy)  # from the first landing: %globaltimer's ns since 1970 lose digits as floats
    try:
        return statistics.correlation([a - o for a, _ in xy], [b - o for _, b in xy]), len(xy)
    except statistics.StatisticsError:  # the same for every block
        return None


def report(run):
    d, c = list(run["D"].values()), list(run["C"].values())
    w = [x for x in run.get("W", {}).values() if x["tiles"] > 0]
    if w:
        print(f"  wgmma consumer phases, cycles a tile over {len(w)} blocks:")
        for k in ("wait", "qk", "softmax", "pv"):
            print(f"    {k:8s} {q([x[k] / x['tiles'] for x in w])}")
        print(f"    prologue {q([x['prologue'] for x in w])} | epilogue {q([x['epilogue'] for x in w])} (a block)")
    pw = [x for x in run.get("P", {}).values() if x["tiles"] > 0]
    if pw:
        print(f"  mxfp4 producer phases, cycles a tile over {len(pw)} blocks:")
        for k in ("rawwait", "emptywait", "convert", "sync"):
            print(f"    {k:9s} {q([x[k] / x['tiles'] for x in pw])}")
    ph = phases(run)
    if ph is None:
        print("  (no decode blocks recorded)")
        return
    us, p = ph
    if p["amax end"]:
        print(f"  amax          start {q(p['amax start'])} | end {q(p['amax end'])}")
    print(f"  decode start  {q(p['decode start'])}")
    if p["unit known"]:
        print(f"  unit known    {q(p['unit known'])} (the producer's tok_kv in: its first copy next)")
    if p["tile0 landed"]:
        print(f"  tile0 landed  {q(p['tile0 landed'])} (seen by the producer)")
    if p["amax known"]:
        if re.search(r" name \S+_qrow\b", run["head"]):  # no pass: the row's own loads, then its heads' amax
            rw = q(p["grid wait done"]) if p["grid wait done"] else "none (not recorded)"
            print(f"  Q path        Q row in {rw} | heads' amax known {q(p['amax known'])}")
        else:
            gw = q(p["grid wait done"]) if p["grid wait done"] else "none (no amax pass)"
            print(f"  Q path        grid wait done {gw} | amax known {q(p['amax known'])}")
    if p["Q quantized"]:
        print(f"  Q quantized   {q(p['Q quantized'])}")
    print(f"  tile0 ready   {q(p['tile0'])}")
    print(f"  loop end      {q(p['loop end'])}")
    if all(len(x) > 7 for x in d):
        print(f"  P.V drained   {q([us(x[7]) for x in d])}")
    print(f"  block end     {q(p['block end'])}")
    print(f"  end phase     {q(p['end phase'])} (block end - loop end, a block's own)")
    rates = [(x[5] - x[4]) / 1e3 / (x[1] - 1) for x in d if x[1] > 1]
    if rates:
        print(f"  us a tile after the first: {q(rates)}")
    r = landing_corr(run)
    if r is not None:
        print(f"  loop end against first tile landed: correlation {r[0]:.2f} over {r[1]} blocks"
              " (near 1: the late blocks are the ones whose first tile came late; near 0: the loop's own spread)")
    by_sm = collections.defaultdict(list)
    for x in d:
        by_sm[x[0]].append(us(x[5]))
    gaps = [max(v) - min(v) for v in by_sm.values() if len(v) == 2]
    if gaps:
        solo = sum(1 for v in by_sm.values() if len(v) == 1)
        print(f"  SMs with two blocks: {len(gaps)}, loop-end gap {q(gaps)}; SMs with one: {solo}")
    k = [x for x in c if x[3] == 2]  # the cluster merge's phases, recorded by the decode blocks
    b = [x for x in c if x[3] == 3]  # the barrier merge's, likewise
    if p["combine end"]:
        wt = f" | weights known {q(p['combine weights'])}" if p["combine weights"] else ""
        if p["combine lse back"]:
            wt = (f" | lse back {q(p['combine lse back'])} | weights stored {q(p['combine weights stored'])}"
                  + wt)
        print(f"  combine       start {q(p['combine start'])} | wait done {q(p['combine wait'])}{wt}"
              f" | end {q(p['combine end'])}")
    if b:
        print(f"  barrier merge arrived {q([us(x[0]) for x in b])} | passed {q([us(x[1]) for x in b])}"
              f" | merged {q([us(x[2]) for x in b])}")
    if k:
        print(f"  cluster merge synced {q([us(x[0]) for x in k])} | weights {q([us(x[1]) for x in k])}"
              f" | data read {q([us(x[2]) for x in k])}")
    span = max(p["block end"] + p["combine end"])
    print(f"  span, first start to last end: {span:.1f} us (event-timed sample {run['sample']} us)")


COLUMNS = ("amax pass end", "decode start", "unit known", "grid wait done (_qrow: Q row in)", "amax known", "Q ready", "first tile landed",
           "first tile", "loop end",
           "block end", "end phase", "combine past its wait", "combine end", "sample")
# a column's phase in phases()
PHASE_OF = {"amax pass end": "amax end", "grid wait done (_qrow: Q row in)": "grid wait done", "Q ready": "Q quantized", "first tile landed": "tile0 landed", "first tile": "tile0",
            "combine past its wait": "combine wait"}


def run_name(run):
    """The case and variant of a run, from its TRACE line (query rows x
    longest (splits), the variant's name; "-" and "variant ID" where absent)"""
    shape = re.search(r"query rows (\d+) longest (\d+) splits (\d+)(?: name (\S+))?", run["head"])
    case = f"{shape[1]} x {shape[2]} ({shape[3]})" if shape else "-"
    variant = shape[4] if shape and shape[4] else "variant " + run["head"].split()[2]
    return case, variant


def table_row(run):
    """A run's medians over blocks, us from the call's first kernel start, as
    COLUMNS ("-" where the run recorded no such phase), after its case and
    variant (run_name)"""
    case, variant = run_name(run)
    ph = phases(run)
    cells = []
    for col in COLUMNS[:-1]:
        v = ph[1][PHASE_OF.get(col, col)] if ph else []
        cells.append(f"{statistics.median(v):.1f}" if v else "-")
    return case, variant, cells + [f"{run['sample']:.2f}"]


MERGE_COLUMNS = ("last decode block end", "combine past its wait", "lse back", "weights known", "combine end",
                 "wait -> lse", "weights -> end")


def merge_row(run):
    """A run's merge (--merge): the last decode block's end and the combine's
    medians, us from the call's first kernel start, and the two spans; None
    where the run has no combine (a call not split, or a one-launch merge)"""
    ph = phases(run)
    if ph is None or not ph[1]["combine end"]:
        return None
    p = ph[1]
    m = {k: statistics.median(p[k]) for k in ("combine wait", "combine end")}
    for k in ("combine lse back", "combine weights"):
        m[k] = statistics.median(p[k]) if p[k] else None
    f = lambda v: "-" if v is None else f"{v:.1f}"
    span = lambda a, b: None if a is None or b is None else b - a
    return [f(max(p["block end"])), f(m["combine wait"]), f(m["combine lse back"]), f(m["combine weights"]),
            f(m["combine end"]), f(span(m["combine wait"], m["combine lse back"])),
            f(span(m["combine weights"], m["combine end"]))]


def main():
    args = sys.argv[1:]
    mode = args[0] if args and args[0] in ("--table", "--merge") else ""
    table, merge = mode == "--table", mode == "--merge"
    logs = args[1:] if mode else args
    if not logs:
        sys.exit("usage: trace_summary.py [--table | --merge] TRACE_LOG... (the stderr of -DMLAB_TRACE mlabench runs)")
    every = [(log, read(log)) for log in logs]  # every log read before anything is printed
    if table:
        print("| case (splits) | variant | " + " | ".join(COLUMNS) + " |")
        print("| --- | --- |" + " ---: |" * len(COLUMNS))
    if merge:
        print("| case (splits) | variant | " + " | ".join(MERGE_COLUMNS) + " |")
        print("| --- | --- |" + " ---: |" * len(MERGE_COLUMNS))
    for log, runs in every:
        if not mode and len(logs) > 1:
            print(f"== {log}")
        for run in runs:
            if merge:
                cells = merge_row(run)
                if cells:
                    print("| %s | %s | " % run_name(run) + " | ".join(cells) + " |")
            elif table:
                case, variant, cells = table_row(run)
                print(f"| {case} | {variant} | " + " | ".join(cells) + " |")
            else:
                print(run["head"])
                report(run)


# the fewest words of each line kind (kind, block, values; TRACE: up to its sample): a shorter line is malformed
MIN_WORDS = {"TRACE": 7, "TA": 4, "TD": 9, "TQ": 4, "TK": 3, "TC": 5, "TE": 4, "TW": 18, "TP": 12}


def read(path):
    """The runs of one log; a log that cannot be read, holds no TRACE line or
    a malformed trace line ends the program with one line naming it (exit 1)"""
    runs = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                w = line.split()
                if not w or not runs and w[0] != "TRACE":
                    continue
                try:
                    if w[0] == "TRACE":
                        if len(w) < MIN_WORDS["TRACE"]:  # not skipped: its blocks would join the run before
                            raise ValueError
                        runs.append({"head": line.strip(), "sample": float(w[6]), "A": {}, "D": {}, "C": {},
                                     "Q": {}, "W": {}, "P": {}, "K": {}, "E": {}})
                        continue
                    if w[0] not in MIN_WORDS:
                        continue
                    if len(w) < MIN_WORDS[w[0]]:
                        raise ValueError
                    b = int(w[1])
                    if w[0] == "TA":
                        runs[-1]["A"][b] = [int(x) for x in w[2:4]]
                    elif w[0] == "TD":
                        runs[-1]["D"][b] = [int(x) for x in w[2:10]]
                    elif w[0] in ("TW", "TP"):
                        runs[-1][w[0][1]][b] = {k: int(v) for k, v in zip(w[2::2], w[3::2])}
                    elif w[0] == "TK":
                        runs[-1]["K"][b] = [int(x) for x in w[2:4]]
                    elif w[0] == "TQ":
                        runs[-1]["Q"][b] = [int(x) for x in w[2:4]]
                    elif w[0] == "TE":
                        runs[-1]["E"][b] = [int(x) for x in w[2:4]]
                    else:
                        runs[-1]["C"][b] = [int(x) for x in w[2:5]] + [int(w[5]) if len(w) > 5 else 1]
                except ValueError:
                    sys.exit(f"{path}:{n}: a malformed {w[0]} line: {line.strip()[:80]}")
    except OSError as e:
        sys.exit(f"{path}: cannot read: {e.strerror}")
    if not runs:
        sys.exit(f"{path}: no TRACE lines (was mlabench built with -DMLAB_TRACE?)")
    return runs


if __name__ == "__main__":
    main()
